import { data } from 'react-router';
import type { Route } from './+types/inventory.objects.$id.agreement';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { agreementYear, type YearPeriod } from '~/core/agreements/agreement-invoices.service';
import { agreementTypeOptions, findAgreementType } from '~/core/agreements/agreement-type.service';
import type { AgreementInterval, PriceModel } from '~/core/agreements/agreement-constants';
import { tenantToday } from '~/core/agreements/generation.service';
import {
  deleteAgreementRow,
  deleteObjectAgreement,
  getObjectAgreement,
  listAgreementRows,
  putObjectAgreement,
  saveAgreementRow,
  scheduleWorkOrders,
  includedArticlesOf,
  type AgreementRow,
  type IncludedArticleView,
  type ObjectAgreement,
} from '~/core/agreements/object-agreement.service';
import { getBusinessObject } from '~/core/business-objects/business-object.service';
import type { Ctx } from '~/core/context';
import { customerLabel, getCustomer } from '~/core/customers/customer.service';
import { isAppError, notFound } from '~/core/errors/app-error';
import { hasAccess, requireAccess } from '~/core/permissions/access';

/**
 * The object page's Agreement tab (issue 16 item 2) loads and saves here, so the object page's own
 * loader stays as it is. The loader answers the panel (?part left out), one year of invoice periods
 * (?part=year&year=), a customer's addresses (?part=addresses&customerId=), the agreement-type
 * picker's options (?part=types&q=) and one type's schedule and price (?part=type&id=). The action
 * takes `intent` save, delete, row-save, row-delete or schedule. The services check the
 * permissions (bo:read to look, bo:agreements:edit to change).
 */
export const middleware = guard({ permission: 'bo:read' });

export interface AddressOption {
  id: string;
  label: string;
  isPrimary: boolean;
}

/** A type as the form shows it once picked: its schedule and default price. */
export interface AgreementTypeFacts {
  id: string;
  code: string;
  title: string;
  price: string;
  priceModel: PriceModel;
  woInterval: AgreementInterval | null;
  woDay: number;
  invoiceInterval: AgreementInterval | null;
  invoiceDay: number;
}

export interface AgreementYear {
  year: number;
  periods: YearPeriod[];
}

export interface AgreementPanelData {
  agreement: ObjectAgreement | null;
  woRows: AgreementRow[];
  invoiceRows: AgreementRow[];
  /** The articles the agreement includes at a discount: the object's own, then its type's. */
  included: IncludedArticleView[];
  /** The current year's invoice periods (null without an agreement or invoices:read). */
  year: AgreementYear | null;
  /** The tenant's date. */
  today: string;
  /** The invoice customer's addresses (the object's customer unless another is set). */
  addresses: AddressOption[];
  /** The invoice customer when it is not the object's, for the picker. */
  invoiceCustomer: { id: string; label: string } | null;
  flags: {
    canEdit: boolean;
    canCreateWorkOrder: boolean;
    canReadInvoices: boolean;
    canReadCustomers: boolean;
    canReadArticles: boolean;
  };
}

export type AgreementLoaderResult =
  | { data: AgreementPanelData }
  | { year: AgreementYear }
  | { addresses: AddressOption[] }
  | { type: AgreementTypeFacts | null }
  | { options: { id: string; label: string }[]; total: number }
  | { error: string };

export interface ScheduleOutcome {
  created: { workOrderId: string; number: string; periodFrom: string } | null;
  skipped: string | null;
}

export type AgreementActionResult =
  | { ok: true; intent: string; schedule?: ScheduleOutcome }
  | {
      ok?: undefined;
      intent: string;
      code: string;
      fields?: Record<string, string[]>;
      /** AGREEMENT_DOUBLE_INVOICING: the period already invoiced. */
      period?: { from: string; to: string };
    };

const addressLabel = (a: { street: string | null; postIndex: string | null; city: string | null }) =>
  [a.street, [a.postIndex, a.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');

async function addressesOf(ctx: Ctx, customerId: string | null): Promise<AddressOption[]> {
  if (!customerId || !hasAccess(ctx.auth, { permission: 'customers:read' })) return [];
  const customer = await getCustomer(ctx, customerId);
  return customer.addresses.map((a) => ({ id: a.id, label: addressLabel(a) || '—', isPrimary: a.isPrimary }));
}

/** One year of the agreement's invoice periods, each with its invoice when made. */
async function yearOf(ctx: Ctx, objectAgreementId: string, year?: string | null): Promise<AgreementYear> {
  const { periods, year: y } = await agreementYear(ctx, objectAgreementId, { year: year ?? undefined });
  return { year: y, periods };
}

async function panel(ctx: Ctx, boId: string): Promise<AgreementPanelData> {
  const auth = ctx.auth;
  const can = (permission: Parameters<typeof hasAccess>[1]['permission']) => hasAccess(auth, { permission });
  const flags = {
    canEdit: can('bo:agreements:edit'),
    canCreateWorkOrder: can('workorders:create'),
    canReadInvoices: can('invoices:read'),
    canReadCustomers: can('customers:read'),
    canReadArticles: can('articles:read'),
  };
  const { agreement } = await getObjectAgreement(ctx, boId);
  const { bo } = await getBusinessObject(ctx, boId);
  const invoiceCustomerId = agreement?.invoiceCustomerId ?? bo.customerId ?? null;
  let invoiceCustomer: AgreementPanelData['invoiceCustomer'] = null;
  if (agreement?.invoiceCustomerId && flags.canReadCustomers) {
    const c = await getCustomer(ctx, agreement.invoiceCustomerId);
    invoiceCustomer = { id: c.id, label: customerLabel({ customer_id: c.customerId, name: c.name }) };
  }
  return {
    agreement,
    woRows: agreement ? (await listAgreementRows(ctx, boId, 'wo')).rows : [],
    invoiceRows: agreement ? (await listAgreementRows(ctx, boId, 'invoice')).rows : [],
    included: agreement ? await includedArticlesOf(ctx, agreement) : [],
    year: agreement && flags.canReadInvoices ? await yearOf(ctx, agreement.id) : null,
    today: tenantToday(ctx),
    addresses: await addressesOf(ctx, invoiceCustomerId),
    invoiceCustomer,
    flags,
  };
}

async function typeFacts(ctx: Ctx, id: string | null): Promise<AgreementTypeFacts | null> {
  // the same rule as the type picker's options: whoever may put an agreement on an object
  if (!hasAccess(ctx.auth, { permission: 'agreements:read' }))
    requireAccess(ctx.auth, { permission: 'bo:agreements:edit' });
  const t = await findAgreementType(ctx, id);
  if (!t) throw notFound();
  return {
    id: t.id,
    code: t.code,
    title: t.title,
    price: t.price,
    priceModel: t.priceModel,
    woInterval: t.woInterval,
    woDay: t.woDay,
    invoiceInterval: t.invoiceInterval,
    invoiceDay: t.invoiceDay,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams;
  const part = q.get('part');
  try {
    return await run(context, async (ctx): Promise<AgreementLoaderResult> => {
      switch (part) {
        case null:
          return { data: await panel(ctx, params.id) };
        case 'year': {
          const { agreement } = await getObjectAgreement(ctx, params.id);
          if (!agreement) throw notFound();
          return { year: await yearOf(ctx, agreement.id, q.get('year')) };
        }
        case 'addresses':
          return { addresses: await addressesOf(ctx, q.get('customerId')) };
        case 'types':
          return agreementTypeOptions(ctx, { q: q.get('q')?.slice(0, 200) ?? '' });
        case 'type':
          return { type: await typeFacts(ctx, q.get('id')) };
        default:
          throw notFound();
      }
    });
  } catch (e) {
    // the panel says it could not load, instead of the page being replaced by an error
    if (isAppError(e) && e.status < 500) return data<AgreementLoaderResult>({ error: e.code }, { status: e.status });
    throw e;
  }
}

/** A form value, undefined when empty (so the service's defaults apply). */
const value = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};
/** A form value as posted ('' clears a text). */
const raw = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

function articlesOf(form: FormData): unknown {
  const text = value(form, 'articles');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The save form as the service takes it: {agreement: {…}}. */
function agreementFromForm(form: FormData) {
  const version = value(form, 'version');
  return {
    agreement: {
      agreementId: value(form, 'agreementId') ?? '',
      validFrom: value(form, 'validFrom'),
      validTo: raw(form, 'validTo'),
      totalPrice: value(form, 'totalPrice'),
      invoicePeriodFrom: value(form, 'invoicePeriodFrom'),
      woScheduledTo: value(form, 'woScheduledTo'),
      invoiceScheduledTo: value(form, 'invoiceScheduledTo'),
      invoiceCustomerId: raw(form, 'invoiceCustomerId'),
      invoiceAddressId: raw(form, 'invoiceAddressId'),
      invoiceExtra: raw(form, 'invoiceExtra'),
      fieldText1: raw(form, 'fieldText1'),
      fieldText2: raw(form, 'fieldText2'),
      fieldText3: raw(form, 'fieldText3'),
      fieldTextArea1: raw(form, 'fieldTextArea1'),
      fieldTextArea2: raw(form, 'fieldTextArea2'),
      fieldDate1: raw(form, 'fieldDate1'),
      articles: articlesOf(form),
      version: version === undefined ? undefined : Number(version),
      confirmDoubleInvoicing: form.get('confirmDoubleInvoicing') === 'true',
    },
  };
}

function rowFromForm(form: FormData) {
  return {
    row: {
      id: value(form, 'id'),
      articleId: raw(form, 'articleId'),
      title: raw(form, 'title'),
      description: raw(form, 'description'),
      amount: value(form, 'amount'),
      price: value(form, 'price'),
      discountType: value(form, 'discountType') ?? 'NONE',
      discountValue: value(form, 'discountValue') ?? '0',
    },
  };
}

async function perform(ctx: Ctx, boId: string, intent: string, form: FormData): Promise<AgreementActionResult> {
  switch (intent) {
    case 'save':
      await putObjectAgreement(ctx, boId, agreementFromForm(form));
      return { ok: true, intent };
    case 'delete':
      await deleteObjectAgreement(ctx, boId);
      return { ok: true, intent };
    case 'row-save': {
      const { row } = rowFromForm(form);
      await saveAgreementRow(ctx, boId, value(form, 'kind'), { row: { ...row, id: row.id ?? null } });
      return { ok: true, intent };
    }
    case 'row-delete':
      await deleteAgreementRow(ctx, boId, value(form, 'kind'), value(form, 'id'));
      return { ok: true, intent };
    case 'schedule': {
      // this object's agreement, whatever id the page sent
      const { agreement } = await getObjectAgreement(ctx, boId);
      if (!agreement) throw notFound();
      const result = await scheduleWorkOrders(ctx, { objectAgreementIds: [agreement.id] });
      const made = result.created[0];
      return {
        ok: true,
        intent,
        schedule: {
          created: made ? { workOrderId: made.workOrderId, number: made.number, periodFrom: made.periodFrom } : null,
          skipped: made ? null : (result.skipped[0]?.reason ?? null),
        },
      };
    }
    default:
      throw data('unknown intent', { status: 400 });
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  try {
    return data<AgreementActionResult>(await run(context, (ctx) => perform(ctx, params.id, intent, form)));
  } catch (e) {
    return actionError<AgreementActionResult>(e, { intent }, (d) =>
      typeof d.periodFrom === 'string' && typeof d.periodTo === 'string'
        ? { period: { from: d.periodFrom, to: d.periodTo } }
        : {},
    );
  }
}

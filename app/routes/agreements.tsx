import { parseDate } from '@internationalized/date';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { redirect, useFetcher } from 'react-router';
import type { Route } from './+types/agreements';
import { tenantContext } from '~/app/context';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useAgreementWords } from '~/app/components/agreements/agreement-words';
import { AgreementsSubnav } from '~/app/components/agreements/agreements-subnav';
import {
  Button,
  DatePicker,
  Dialog,
  ListFilters,
  ListPage,
  ListTable,
  pageFromUrl,
  Select,
  TextField,
  useListUrl,
} from '~/app/components/ui';
import { useFieldErrors } from '~/app/components/objects/shared';
import { AGREEMENT_STATUSES, AGREEMENT_TYPES } from '~/core/agreements/agreement-constants';
import { createAgreementType, listAgreementTypes, type Agreement } from '~/core/agreements/agreement-type.service';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { hasAccess } from '~/core/permissions/access';
import { dateIn } from '~/core/work-orders/time-rules';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Agreements → agreement types (spec sections 2 and 3): what agreements on objects are instances
 * of, with how often they make work orders and invoices and how many objects use each.
 */
export const middleware = guard({ permission: 'agreements:read' });

const oneOf = <T extends string>(list: readonly T[], v: string | null): T | undefined =>
  (list as readonly string[]).includes(v ?? '') ? (v as T) : undefined;

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const status = oneOf(AGREEMENT_STATUSES, url.searchParams.get('status'));
  const type = oneOf(AGREEMENT_TYPES, url.searchParams.get('type'));
  const list = await run(context, (ctx) =>
    listAgreementTypes(ctx, { q: url.searchParams.get('q')?.slice(0, 200) || undefined, status, type, ...page }),
  );
  return {
    ...list,
    ...page,
    canEdit: hasAccess(auth, { permission: 'agreements:edit' }),
    // A new type is valid from today unless told (the tenant's day, so server and browser agree).
    today: dateIn(new Date(), tenantTimeZone(context.get(tenantContext).config?.country)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (name: string) => (typeof form.get(name) === 'string' ? String(form.get(name)) : undefined);
  let id: string;
  try {
    ({ id } = await run(context, (ctx) =>
      createAgreementType(ctx, {
        agreement: { title: text('title'), code: text('code'), type: text('type'), validFrom: text('validFrom') ?? '' },
      }),
    ));
  } catch (e) {
    return actionError(e);
  }
  throw redirect(`/agreements/${id}?created=1`);
}

function NewAgreementDialog({ today, onClose }: { today: string; onClose: () => void }) {
  const { t } = useTranslation('agreements');
  const words = useAgreementWords();
  const fetcher = useFetcher<ActionError>();
  const err = useFieldErrors(fetcher.data);
  const { t: tc } = useTranslation();
  const formError = fetcher.data?.code && !fetcher.data.fields ? tc(fetcher.data.code) : null;
  return (
    <Dialog title={t('new')} isOpen onOpenChange={(open) => (open ? null : onClose())}>
      <fetcher.Form method="post" className="grid gap-4" noValidate>
        <TextField name="title" label={t('field.title')} isRequired autoFocus errorMessage={err('title')} />
        <TextField name="code" label={t('field.code')} description={t('field.code.help')} errorMessage={err('code')} />
        <Select name="type" label={t('field.type')} defaultSelectedKey="service" items={words.typeItems} />
        <DatePicker
          name="validFrom"
          label={t('field.validFrom')}
          defaultValue={parseDate(today)}
          isRequired
          errorMessage={err('validFrom')}
        />
        {formError ? (
          <p role="alert" className="text-sm text-red-700">
            {formError}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onPress={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
            {t('create')}
          </Button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.agreements');

export default function Agreements({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('agreements');
  const words = useAgreementWords();
  const list = useListUrl();
  const [creating, setCreating] = useState(false);
  const { agreements, totalCount, offset, limit } = loaderData;
  const filtered = list.isFiltered({ q: '', status: 'all', type: 'all' });

  const columns = [
    {
      id: 'code',
      header: t('field.code'),
      isRowHeader: true,
      render: (a: Agreement) => <span className="font-medium">{a.code}</span>,
    },
    { id: 'title', header: t('field.title'), render: (a: Agreement) => a.title },
    { id: 'type', header: t('field.type'), render: (a: Agreement) => words.type(a.type) },
    {
      id: 'wo',
      header: t('col.workOrders'),
      render: (a: Agreement) => words.schedule(a.woInterval, a.woDay),
    },
    {
      id: 'invoices',
      header: t('col.invoices'),
      render: (a: Agreement) => words.schedule(a.invoiceInterval, a.invoiceDay),
    },
    {
      id: 'valid',
      header: t('col.valid'),
      render: (a: Agreement) => (
        <span className="tabular-nums">
          {a.validFrom ?? '—'} – {a.validTo ?? ''}
        </span>
      ),
    },
    {
      id: 'objects',
      header: t('col.objects'),
      align: 'end' as const,
      render: (a: Agreement) => <span className="tabular-nums">{a.objectCount}</span>,
    },
    { id: 'status', header: t('field.status'), render: (a: Agreement) => t(`status.${a.status}`) },
  ];

  return (
    <ListPage
      title={t('title')}
      above={<AgreementsSubnav className="mb-4" />}
      deletedNotice={t('deleted')}
      actions={
        loaderData.canEdit ? (
          <Button variant="primary" onPress={() => setCreating(true)}>
            {t('new')}
          </Button>
        ) : null
      }
    >
      <ListFilters keep={['status', 'type', 'limit']}>
        <TextField
          name="q"
          type="search"
          label={t('filter.search')}
          defaultValue={list.params.get('q') ?? ''}
          className="min-w-48 flex-1"
        />
        <Select
          label={t('field.status')}
          className="w-40"
          defaultSelectedKey={list.params.get('status') ?? 'all'}
          onSelectionChange={(key) => list.setFilter('status', String(key ?? ''), 'all')}
          items={[
            { id: 'all', label: t('filter.all') },
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
        />
        <Select
          label={t('field.type')}
          className="w-44"
          defaultSelectedKey={list.params.get('type') ?? 'all'}
          onSelectionChange={(key) => list.setFilter('type', String(key ?? ''), 'all')}
          items={[{ id: 'all', label: t('filter.all') }, ...words.typeItems]}
        />
      </ListFilters>
      <ListTable
        aria-label={t('title')}
        count={t('count', { count: totalCount })}
        columns={columns}
        rows={agreements}
        getRowHref={(a) => `/agreements/${a.id}`}
        empty={{ empty: t('empty'), filtered: t('empty.filtered'), isFiltered: filtered }}
        totalCount={totalCount}
        offset={offset}
        limit={limit}
      />
      {creating ? <NewAgreementDialog today={loaderData.today} onClose={() => setCreating(false)} /> : null}
    </ListPage>
  );
}

import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link } from 'react-router';
import type { Route } from './+types/settings.compensation-types';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import {
  CodeDeleteDialogs,
  CodeDialog,
  CodeFields,
  CodeList,
  CodeListHeader,
  postedCode,
  useCodeList,
  type CodeDraft,
  type CodeListResult,
} from '~/app/components/settings/code-list';
import { formatAmount, typedOf, useTagLabel } from '~/app/components/time/expense-shared';
import { TextField } from '~/app/components/ui';
import { hasAccess } from '~/core/permissions/access';
import { COMPENSATION_TYPES, type CompensationType } from '~/core/time-reports/compensation.rules';
import {
  addCompensationTag,
  deleteCompensationTag,
  editCompensationTag,
  listCompensationTags,
  setCompensationTagActive,
  type CompensationTag,
} from '~/core/time-reports/compensation-tags.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → compensation types (spec section 3 "Compensation types: distance, travel, expense",
 * section 9 codes; api-calls.md /timereports/conf/compensation/tags): the codes mileage, travel
 * allowances and expenses are reported by, with the price per kilometre or day and the payroll
 * system's code. Anyone with settings:read sees them; instance:edit changes them. A type in use
 * cannot be deleted: the page offers to set it inactive instead.
 */
export const middleware = guard({ permission: 'settings:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    ...(await listCompensationTags(ctx)),
    canEdit: hasAccess(auth, { permission: 'instance:edit' }),
  }));
}

type Result = CodeListResult;

export async function action({ request, context }: Route.ActionArgs) {
  const f = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (f.intent === 'delete') await deleteCompensationTag(ctx, f.id);
      else if (f.intent === 'activate' || f.intent === 'deactivate')
        await setCompensationTagActive(ctx, f.id, f.intent === 'activate');
      else {
        const tag = { ...postedCode(f), unitPrice: f.unitPrice };
        if (f.id) await editCompensationTag(ctx, { ...tag, id: f.id });
        else await addCompensationTag(ctx, tag);
      }
      return data<Result>({ ok: true, intent: f.intent ?? 'save' });
    });
  } catch (e) {
    return actionError(e);
  }
}

interface Draft extends CodeDraft<CompensationType> {
  unitPrice: string;
}

const toDraft = (tag: CompensationTag): Draft => ({
  id: tag.id,
  code: tag.code,
  name: tag.name ?? '',
  type: tag.type,
  unitPrice: typedOf(tag.unitPrice),
  payrollCode: tag.payrollCode ?? '',
  active: tag.active,
  sortOrder: String(tag.sortOrder),
});

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.compensationTypes', null, { within: 'settings.title' });

export default function CompensationTypesPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('expenses');
  const { t: tc } = useTranslation();
  const tagLabel = useTagLabel();
  const { fetcher, busy, draft, setDraft, deleting, setDeleting, inUse, setInUse, err, set, openDraft, confirmDelete } =
    useCodeList<Draft, CompensationTag, CompensationTag>({ toInUse: (tag) => tag, closeDeleteOnInUse: true });
  const price = (tag: CompensationTag) =>
    tag.type === 'expense' || tag.unitPrice === null
      ? t('settings.noUnitPrice')
      : t(tag.type === 'distance' ? 'settings.perKm' : 'settings.perDay', { price: formatAmount(tag.unitPrice) });

  function openNew(type: CompensationType) {
    openDraft({ id: null, code: '', name: '', type, unitPrice: '', payrollCode: '', active: true, sortOrder: '' });
  }
  function save(e: FormEvent) {
    e.preventDefault();
    if (!draft) return;
    void fetcher.submit(
      {
        intent: 'save',
        ...draft,
        id: draft.id ?? '',
        unitPrice: draft.type === 'expense' ? '' : draft.unitPrice,
        active: String(draft.active),
      },
      { method: 'post' },
    );
  }
  const setActive = (tag: CompensationTag, active: boolean) =>
    void fetcher.submit({ intent: active ? 'activate' : 'deactivate', id: tag.id }, { method: 'post' });

  return (
    <div className="grid max-w-4xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {tc('settings.title')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('settings.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('settings.intro')}</p>
        {d.canEdit ? null : <p className="mt-2 text-sm text-slate-600">{t('settings.readOnly')}</p>}
      </div>

      {COMPENSATION_TYPES.map((type) => (
        <section
          key={type}
          aria-labelledby={`compensation-${type}`}
          data-testid={`compensation-${type}`}
          className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        >
          <CodeListHeader
            heading={
              <h2 id={`compensation-${type}`} className="text-lg font-semibold">
                {t(`type.${type}`)}
              </h2>
            }
            canEdit={d.canEdit}
            addLabel={t('settings.add')}
            onAdd={() => openNew(type)}
          />
          <p className="mt-1 text-sm text-slate-600">{t(`settings.help.${type}`)}</p>
          <CodeList
            codes={d.tags.filter((tag) => tag.type === type)}
            label={t(`type.${type}`)}
            empty={t('settings.empty')}
            spacing="mt-3"
            canEdit={d.canEdit}
            busy={busy}
            editText={t('settings.edit')}
            deleteText={t('settings.delete')}
            actions={(tag) => ({
              editLabel: t('settings.editLabel', { label: tagLabel(tag) }),
              toggleLabel: t(tag.active ? 'settings.deactivateLabel' : 'settings.activateLabel', {
                label: tagLabel(tag),
              }),
              toggleText: t(tag.active ? 'settings.deactivate' : 'settings.activate'),
              deleteLabel: t('settings.deleteLabel', { label: tagLabel(tag) }),
            })}
            onEdit={(tag) => openDraft(toDraft(tag))}
            onToggle={(tag) => setActive(tag, !tag.active)}
            onDelete={setDeleting}
          >
            {(tag) => (
              <>
                <span className="font-medium break-words">{tagLabel(tag)}</span>
                <span className="ms-2 text-sm tabular-nums text-slate-600">{price(tag)}</span>
                {tag.payrollCode ? (
                  <span className="ms-2 text-sm text-slate-600">
                    {t('settings.payrollCode')}: {tag.payrollCode}
                  </span>
                ) : null}
                {!tag.active ? (
                  <span className="ms-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                    {t('settings.inactive')}
                  </span>
                ) : null}
              </>
            )}
          </CodeList>
        </section>
      ))}

      <CodeDialog
        title={draft?.id ? t('settings.editTitle', { code: draft.code }) : t('settings.addTitle')}
        draft={draft}
        onClose={() => setDraft(null)}
        busy={busy}
        onSubmit={save}
        cancelLabel={t('cancel')}
        saveLabel={t('save')}
      >
        {(draft) => (
          <CodeFields
            draft={draft}
            set={set}
            err={err}
            labels={{
              code: t('settings.code'),
              type: t('settings.type'),
              name: t('settings.name'),
              nameHelp: t('settings.nameHelp'),
              payrollCode: t('settings.payrollCode'),
              payrollCodeHelp: t('settings.payrollCodeHelp'),
              sortOrder: t('settings.sortOrder'),
              active: t('settings.active'),
            }}
            types={COMPENSATION_TYPES.map((type) => ({ id: type, label: t(`type.${type}`) }))}
            namePlaceholder={draft.code ? t(`code.${draft.code}`, { defaultValue: '' }) : undefined}
            leading={
              draft.type === 'expense' ? null : (
                <TextField
                  label={t(draft.type === 'distance' ? 'settings.unitPriceKm' : 'settings.unitPriceDay')}
                  value={draft.unitPrice}
                  onChange={(v) => set({ unitPrice: v })}
                  inputMode="decimal"
                  description={t('settings.unitPriceHelp')}
                  errorMessage={err('unitPrice')}
                />
              )
            }
          />
        )}
      </CodeDialog>

      <CodeDeleteDialogs
        busy={busy}
        deleteOpen={deleting !== null}
        onDeleteClose={() => setDeleting(null)}
        deleteTitle={t('settings.deleteTitle')}
        deleteMessage={deleting ? t('settings.deleteMessage', { label: tagLabel(deleting) }) : undefined}
        deleteLabel={t('settings.delete')}
        onDelete={confirmDelete}
        inUseOpen={inUse !== null}
        onInUseClose={() => setInUse(null)}
        inUseTitle={t('settings.inUseTitle')}
        inUseMessage={inUse ? t('settings.inUseMessage', { label: tagLabel(inUse) }) : undefined}
        deactivateLabel={t('settings.deactivate')}
        onDeactivate={() => {
          if (inUse) setActive(inUse, false);
        }}
      />
    </div>
  );
}

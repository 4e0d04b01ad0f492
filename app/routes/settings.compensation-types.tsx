import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher } from 'react-router';
import type { Route } from './+types/settings.compensation-types';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { formatAmount, typedOf, useTagLabel } from '~/app/components/time/expense-shared';
import { Button, ConfirmDialog, Dialog, Select, TextField, useToast } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
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

type Result = { ok: true; intent: string } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const f = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (f.intent === 'delete') await deleteCompensationTag(ctx, f.id);
      else if (f.intent === 'activate' || f.intent === 'deactivate')
        await setCompensationTagActive(ctx, f.id, f.intent === 'activate');
      else {
        const tag = {
          code: f.code,
          name: f.name,
          type: f.type,
          unitPrice: f.unitPrice,
          payrollCode: f.payrollCode,
          active: f.active,
          sortOrder: f.sortOrder || undefined,
        };
        if (f.id) await editCompensationTag(ctx, { ...tag, id: f.id });
        else await addCompensationTag(ctx, tag);
      }
      return data<Result>({ ok: true, intent: f.intent ?? 'save' });
    });
  } catch (e) {
    return actionError(e);
  }
}

interface Draft {
  id: string | null;
  code: string;
  name: string;
  type: CompensationType;
  unitPrice: string;
  payrollCode: string;
  active: boolean;
  sortOrder: string;
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

export default function CompensationTypesPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('expenses');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const tagLabel = useTagLabel();
  const fetcher = useFetcher<Result>();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<CompensationTag | null>(null);
  /** The type whose delete is on its way: a 409 IN_USE offers to set it inactive instead. */
  const deleted = useRef<CompensationTag | null>(null);
  const [inUse, setInUse] = useState<CompensationTag | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  useFetcherResult(fetcher, (result) => {
    const wasDeleting = deleted.current;
    deleted.current = null;
    if ('ok' in result) {
      setDraft(null);
      setDeleting(null);
      setInUse(null);
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else if (result.code === 'IN_USE' && wasDeleting) {
      setDeleting(null);
      setInUse(wasDeleting);
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });
  const busy = fetcher.state !== 'idle';
  const err = (k: string) => fields[k]?.map((c) => tc(c));
  const set = (patch: Partial<Draft>) => setDraft((x) => (x ? { ...x, ...patch } : x));
  const price = (tag: CompensationTag) =>
    tag.type === 'expense' || tag.unitPrice === null
      ? t('settings.noUnitPrice')
      : t(tag.type === 'distance' ? 'settings.perKm' : 'settings.perDay', { price: formatAmount(tag.unitPrice) });

  function openNew(type: CompensationType) {
    setFields({});
    setDraft({ id: null, code: '', name: '', type, unitPrice: '', payrollCode: '', active: true, sortOrder: '' });
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

      {COMPENSATION_TYPES.map((type) => {
        const tags = d.tags.filter((tag) => tag.type === type);
        return (
          <section
            key={type}
            aria-labelledby={`compensation-${type}`}
            data-testid={`compensation-${type}`}
            className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id={`compensation-${type}`} className="text-lg font-semibold">
                {t(`type.${type}`)}
              </h2>
              {d.canEdit ? (
                <Button size="sm" variant="secondary" onPress={() => openNew(type)}>
                  {t('settings.add')}
                </Button>
              ) : null}
            </div>
            <p className="mt-1 text-sm text-slate-600">{t(`settings.help.${type}`)}</p>
            {tags.length === 0 ? (
              <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
                {t('settings.empty')}
              </p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100" aria-label={t(`type.${type}`)}>
                {tags.map((tag) => (
                  <li
                    key={tag.id}
                    className={cx(
                      'flex flex-wrap items-center justify-between gap-2 py-2',
                      !tag.active && 'text-slate-500',
                    )}
                  >
                    <div className="min-w-0">
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
                    </div>
                    {d.canEdit ? (
                      <div className="flex flex-wrap gap-1">
                        <Button
                          size="sm"
                          variant="secondary"
                          onPress={() => {
                            setFields({});
                            setDraft(toDraft(tag));
                          }}
                          aria-label={t('settings.editLabel', { label: tagLabel(tag) })}
                        >
                          {t('settings.edit')}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          isDisabled={busy}
                          onPress={() => setActive(tag, !tag.active)}
                          aria-label={t(tag.active ? 'settings.deactivateLabel' : 'settings.activateLabel', {
                            label: tagLabel(tag),
                          })}
                        >
                          {t(tag.active ? 'settings.deactivate' : 'settings.activate')}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          onPress={() => setDeleting(tag)}
                          aria-label={t('settings.deleteLabel', { label: tagLabel(tag) })}
                        >
                          {t('settings.delete')}
                        </Button>
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}

      <Dialog
        title={draft?.id ? t('settings.editTitle', { code: draft.code }) : t('settings.addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => (open ? undefined : setDraft(null))}
        isDismissable={!busy}
      >
        {draft ? (
          <form className="grid gap-3" onSubmit={save} noValidate>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={t('settings.code')}
                value={draft.code}
                onChange={(v) => set({ code: v })}
                errorMessage={err('code')}
                isRequired
                autoFocus
              />
              <Select
                label={t('settings.type')}
                items={COMPENSATION_TYPES.map((type) => ({ id: type, label: t(`type.${type}`) }))}
                selectedKey={draft.type}
                onSelectionChange={(k) => k && set({ type: k as CompensationType })}
                errorMessage={err('type')}
              />
            </div>
            <TextField
              label={t('settings.name')}
              value={draft.name}
              onChange={(v) => set({ name: v })}
              placeholder={draft.code ? t(`code.${draft.code}`, { defaultValue: '' }) : undefined}
              description={t('settings.nameHelp')}
              errorMessage={err('name')}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              {draft.type === 'expense' ? null : (
                <TextField
                  label={t(draft.type === 'distance' ? 'settings.unitPriceKm' : 'settings.unitPriceDay')}
                  value={draft.unitPrice}
                  onChange={(v) => set({ unitPrice: v })}
                  inputMode="decimal"
                  description={t('settings.unitPriceHelp')}
                  errorMessage={err('unitPrice')}
                />
              )}
              <TextField
                label={t('settings.payrollCode')}
                value={draft.payrollCode}
                onChange={(v) => set({ payrollCode: v })}
                description={t('settings.payrollCodeHelp')}
                errorMessage={err('payrollCode')}
              />
              <TextField
                label={t('settings.sortOrder')}
                value={draft.sortOrder}
                onChange={(v) => set({ sortOrder: v })}
                inputMode="numeric"
                errorMessage={err('sortOrder')}
              />
            </div>
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.active}
                onChange={(e) => set({ active: e.target.checked })}
                className="h-5 w-5"
              />
              {t('settings.active')}
            </label>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onPress={() => setDraft(null)} isDisabled={busy}>
                {t('cancel')}
              </Button>
              <Button type="submit" variant="primary" isPending={busy}>
                {t('save')}
              </Button>
            </div>
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t('settings.deleteTitle')}
        message={deleting ? t('settings.deleteMessage', { label: tagLabel(deleting) }) : undefined}
        variant="danger"
        confirmLabel={t('settings.delete')}
        isPending={busy}
        onConfirm={() => {
          if (!deleting) return;
          deleted.current = deleting;
          void fetcher.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
        }}
      />

      <ConfirmDialog
        isOpen={inUse !== null}
        onOpenChange={(open) => (open ? undefined : setInUse(null))}
        title={t('settings.inUseTitle')}
        message={inUse ? t('settings.inUseMessage', { label: tagLabel(inUse) }) : undefined}
        confirmLabel={t('settings.deactivate')}
        isPending={busy}
        onConfirm={() => {
          if (inUse) setActive(inUse, false);
        }}
      />
    </div>
  );
}

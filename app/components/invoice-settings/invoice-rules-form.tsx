import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ArticlePicker } from '~/app/components/inventory/pickers/article-picker';
import { Button, Select, TextField, type PickerOption } from '~/app/components/ui';
import { CloseIcon } from '~/app/components/ui/icons';
import { ErrorText, newKey, Section, useSectionSave } from '~/app/components/work-orders/settings/shared';
import type { ApplyType } from '~/core/invoicing/apply-types';
import type { ArticleRef, InvoiceRulesView } from '~/core/invoicing/invoice-rules.service';
import { RuleSwitch } from './rule-switch';

/** The roundings the rules allow (the service's TIME_ROUNDING_MINUTES; that module is server-only). */
export const ROUNDING_MINUTES = [0, 5, 10, 15, 30, 60] as const;
export const BANK_ACCOUNT_MAX = 50;
/** The apply types a tenant may turn off (core/invoicing/apply-types' APPLY_TYPES; that module is server-only). */
export const APPLY_TYPE_CHOICES = [
  'pdf',
  'email',
  'visma-xml',
  'erp',
  'peppol',
] as const satisfies readonly ApplyType[];

export interface Choice {
  id: string;
  name: string;
}

export interface InvoiceRulesFormProps {
  rules: InvoiceRulesView;
  /** The work types and active people an override can name. */
  workTypes: Choice[];
  users: Choice[];
  canEdit: boolean;
}

interface OverrideRow {
  key: string;
  /** The work type's or the person's id ("" until chosen). */
  targetId: string;
  article: PickerOption | null;
}

/** An article as the pickers show it: "ARB – Arbete". */
export const articleOption = (a: ArticleRef | null): PickerOption | null =>
  a ? { id: a.id, label: `${a.articleId} – ${a.title}` } : null;

/**
 * Settings → invoicing (issue 14 items 1 and 6): whether an invoice waits for review, how labour,
 * travel time and mileage are billed from the time rows, the labour article per work type and per
 * person, the bank account, OCR and the next invoice number. One form, saved as one PUT; the
 * server's field errors show beside their fields, the outcome as a toast. Read-only without
 * instance:edit.
 */
export function InvoiceRulesForm({ rules, workTypes, users, canEdit }: InvoiceRulesFormProps) {
  const { t } = useTranslation('invoicesettings');
  const save = useSectionSave(() => undefined);
  const disabled = !canEdit;
  const [form, setForm] = useState(() => ({
    reviewBeforeSending: rules.reviewBeforeSending,
    applyTypesOff: rules.applyTypesOff as string[],
    billTime: rules.billTime,
    billTravelTime: rules.billTravelTime,
    ocr: rules.ocr,
    labourArticle: articleOption(rules.labourArticle),
    travelArticle: articleOption(rules.travelArticle),
    mileageArticle: articleOption(rules.mileageArticle),
    timeRoundingMinutes: String(rules.timeRoundingMinutes),
    bankAccount: rules.bankAccount ?? '',
    nextInvoiceNr: String(rules.nextInvoiceNr),
  }));
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const [typeRows, setTypeRows] = useState<OverrideRow[]>(() =>
    rules.overrides.workTypes.map((o) => ({ key: o.id, targetId: o.workType.id, article: articleOption(o.article) })),
  );
  const [userRows, setUserRows] = useState<OverrideRow[]>(() =>
    rules.overrides.users.map((o) => ({ key: o.id, targetId: o.user.id, article: articleOption(o.article) })),
  );

  // people and work types an override names that are not among the choices (a person made inactive)
  const typeChoices = withSaved(
    workTypes,
    rules.overrides.workTypes.map((o) => o.workType),
  );
  const userChoices = withSaved(
    users,
    rules.overrides.users.map((o) => o.user),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      reviewBeforeSending: form.reviewBeforeSending,
      applyTypesOff: form.applyTypesOff,
      billTime: form.billTime,
      labourArticleId: form.labourArticle?.id ?? null,
      billTravelTime: form.billTravelTime,
      travelArticleId: form.travelArticle?.id ?? null,
      timeRoundingMinutes: Number(form.timeRoundingMinutes),
      mileageArticleId: form.mileageArticle?.id ?? null,
      bankAccount: form.bankAccount,
      ocr: form.ocr,
      // only when changed here: a number given meanwhile moves the counter on, and the old value would be refused
      ...(form.nextInvoiceNr.trim() !== String(rules.nextInvoiceNr)
        ? { nextInvoiceNr: form.nextInvoiceNr.trim() }
        : {}),
      overrides: {
        workTypes: typeRows.map((r) => ({ workTypeId: r.targetId, articleId: r.article?.id ?? '' })),
        users: userRows.map((r) => ({ userId: r.targetId, articleId: r.article?.id ?? '' })),
      },
    };
    void save.fetcher.submit(body, { method: 'post', encType: 'application/json' });
  };

  return (
    <form className="grid gap-6" noValidate onSubmit={submit} aria-label={t('rules.title')}>
      <Section id="invoice-sending" title={t('rules.sending.title')}>
        <div className="mt-3">
          <RuleSwitch
            label={t('rules.reviewBeforeSending')}
            description={t('rules.reviewBeforeSending.help')}
            isSelected={form.reviewBeforeSending}
            onChange={(reviewBeforeSending) => set({ reviewBeforeSending })}
            isDisabled={disabled}
          />
        </div>
        <fieldset className="mt-4 grid gap-3">
          <legend className="text-sm font-medium text-gray-900">{t('rules.applyTypes')}</legend>
          <p className="text-sm text-gray-600">{t('rules.applyTypes.help')}</p>
          {APPLY_TYPE_CHOICES.map((type) => (
            <RuleSwitch
              key={type}
              label={t(`rules.applyType.${type}`)}
              isSelected={!form.applyTypesOff.includes(type)}
              onChange={(on) =>
                set({
                  applyTypesOff: on
                    ? form.applyTypesOff.filter((x) => x !== type)
                    : [...form.applyTypesOff.filter((x) => x !== type), type],
                })
              }
              isDisabled={disabled}
            />
          ))}
          <ErrorText messages={save.err('applyTypesOff')} />
        </fieldset>
      </Section>

      <Section id="invoice-labour" title={t('rules.labour.title')} intro={t('rules.labour.intro')}>
        <div className="mt-3 grid gap-4">
          <RuleSwitch
            label={t('rules.billTime')}
            description={t('rules.billTime.help')}
            isSelected={form.billTime}
            onChange={(billTime) => set({ billTime })}
            isDisabled={disabled}
          />
          <ArticlePicker
            label={t('rules.labourArticle')}
            description={t('rules.labourArticle.help')}
            defaultSelected={form.labourArticle}
            onSelectionChange={(labourArticle) => set({ labourArticle })}
            errorMessage={save.err('labourArticleId')}
            isDisabled={disabled}
          />
          <RuleSwitch
            label={t('rules.billTravelTime')}
            description={t('rules.billTravelTime.help')}
            isSelected={form.billTravelTime}
            onChange={(billTravelTime) => set({ billTravelTime })}
            isDisabled={disabled}
          />
          <ArticlePicker
            label={t('rules.travelArticle')}
            description={t('rules.travelArticle.help')}
            defaultSelected={form.travelArticle}
            onSelectionChange={(travelArticle) => set({ travelArticle })}
            errorMessage={save.err('travelArticleId')}
            isDisabled={disabled}
          />
          <Select
            label={t('rules.timeRounding')}
            description={t('rules.timeRounding.help')}
            items={ROUNDING_MINUTES.map((m) => ({
              id: String(m),
              label: m === 0 ? t('rules.timeRounding.exact') : t('rules.timeRounding.minutes', { minutes: m }),
            }))}
            selectedKey={form.timeRoundingMinutes}
            onSelectionChange={(k) => set({ timeRoundingMinutes: String(k ?? '0') })}
            errorMessage={save.err('timeRoundingMinutes')}
            isDisabled={disabled}
            className="max-w-xs"
          />
          <ArticlePicker
            label={t('rules.mileageArticle')}
            description={t('rules.mileageArticle.help')}
            defaultSelected={form.mileageArticle}
            onSelectionChange={(mileageArticle) => set({ mileageArticle })}
            errorMessage={save.err('mileageArticleId')}
            isDisabled={disabled}
          />
        </div>
      </Section>

      <Section id="invoice-overrides" title={t('rules.overrides.title')} intro={t('rules.overrides.intro')}>
        <OverrideList
          kind="workTypes"
          title={t('rules.overrides.workTypes')}
          targetLabel={t('rules.overrides.workType')}
          addLabel={t('rules.overrides.addWorkType')}
          empty={t('rules.overrides.noWorkTypes')}
          choices={typeChoices}
          rows={typeRows}
          setRows={setTypeRows}
          restructured={save.restructured}
          err={save.err}
          canEdit={canEdit}
        />
        <OverrideList
          kind="users"
          title={t('rules.overrides.users')}
          targetLabel={t('rules.overrides.user')}
          addLabel={t('rules.overrides.addUser')}
          empty={t('rules.overrides.noUsers')}
          choices={userChoices}
          rows={userRows}
          setRows={setUserRows}
          restructured={save.restructured}
          err={save.err}
          canEdit={canEdit}
        />
      </Section>

      <Section id="invoice-payment" title={t('rules.payment.title')}>
        <div className="mt-3 grid gap-4">
          <TextField
            label={t('rules.bankAccount')}
            description={t('rules.bankAccount.help')}
            value={form.bankAccount}
            onChange={(bankAccount) => set({ bankAccount })}
            maxLength={BANK_ACCOUNT_MAX}
            autoComplete="off"
            errorMessage={save.err('bankAccount')}
            isDisabled={disabled}
            className="max-w-md"
          />
          <RuleSwitch
            label={t('rules.ocr')}
            description={t('rules.ocr.help')}
            isSelected={form.ocr}
            onChange={(ocr) => set({ ocr })}
            isDisabled={disabled}
          />
          <TextField
            label={t('rules.nextInvoiceNr')}
            description={t('rules.nextInvoiceNr.help', { lowest: rules.lowestNextInvoiceNr })}
            value={form.nextInvoiceNr}
            onChange={(nextInvoiceNr) => set({ nextInvoiceNr })}
            inputMode="numeric"
            isRequired
            errorMessage={save.err('nextInvoiceNr')}
            isDisabled={disabled}
            className="w-48"
          />
        </div>
      </Section>

      {canEdit ? (
        <div>
          <Button type="submit" variant="primary" isPending={save.busy}>
            {t('save')}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** The choices with the saved ones that are no longer among them, by name. */
function withSaved(choices: Choice[], saved: Choice[]): Choice[] {
  const ids = new Set(choices.map((c) => c.id));
  const missing = saved.filter((s) => !ids.has(s.id));
  return missing.length ? [...choices, ...missing].sort((a, b) => a.name.localeCompare(b.name)) : choices;
}

/** One list of overrides: a work type or person and its labour article per row, added and removed here. */
function OverrideList({
  kind,
  title,
  targetLabel,
  addLabel,
  empty,
  choices,
  rows,
  setRows,
  restructured,
  err,
  canEdit,
}: {
  kind: 'workTypes' | 'users';
  title: string;
  targetLabel: string;
  addLabel: string;
  empty: string;
  choices: Choice[];
  rows: OverrideRow[];
  setRows: (rows: OverrideRow[]) => void;
  /** Rows were added or removed: the last answer's row numbers no longer apply. */
  restructured: () => void;
  err: (key: string) => string[] | undefined;
  canEdit: boolean;
}) {
  const { t } = useTranslation('invoicesettings');
  const target = kind === 'workTypes' ? 'workTypeId' : 'userId';
  const nameOf = (id: string) => choices.find((c) => c.id === id)?.name ?? '';
  const update = (i: number, patch: Partial<OverrideRow>) =>
    setRows(rows.map((r, j) => (i === j ? { ...r, ...patch } : r)));
  return (
    <div className="mt-4 grid gap-3">
      <h3 className="text-base font-medium">{title}</h3>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="grid gap-3" aria-label={title}>
          {rows.map((row, i) => {
            const taken = new Set(rows.filter((_, j) => j !== i).map((r) => r.targetId));
            const name = nameOf(row.targetId) || t('rules.overrides.row', { row: i + 1 });
            return (
              <li
                key={row.key}
                data-testid={`override-${kind}`}
                className="flex flex-wrap items-start gap-x-4 gap-y-2 rounded-lg p-3 ring-1 ring-slate-200"
              >
                <Select
                  label={targetLabel}
                  items={choices.filter((c) => !taken.has(c.id)).map((c) => ({ id: c.id, label: c.name }))}
                  selectedKey={row.targetId || null}
                  onSelectionChange={(k) => update(i, { targetId: k === null ? '' : String(k) })}
                  errorMessage={err(`overrides.${kind}.${i}.${target}`)}
                  isRequired
                  isDisabled={!canEdit}
                  className="w-full min-w-48 flex-1 sm:w-auto"
                />
                <ArticlePicker
                  label={t('rules.overrides.article')}
                  defaultSelected={row.article}
                  onSelectionChange={(article) => update(i, { article })}
                  errorMessage={err(`overrides.${kind}.${i}.articleId`)}
                  isRequired
                  isDisabled={!canEdit}
                  className="w-full min-w-56 flex-[2] sm:w-auto"
                />
                {canEdit ? (
                  <span className="sm:pt-6">
                    <Button
                      size="sm"
                      variant="ghost"
                      isIconOnly
                      aria-label={t('rules.overrides.remove', { name })}
                      onPress={() => {
                        setRows(rows.filter((_, j) => j !== i));
                        restructured();
                      }}
                    >
                      <CloseIcon aria-hidden className="size-4" />
                    </Button>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <ErrorText messages={err(`overrides.${kind}`)} />
      {canEdit ? (
        <div>
          <Button
            variant="secondary"
            isDisabled={rows.length >= choices.length}
            onPress={() => {
              setRows([...rows, { key: newKey(), targetId: '', article: null }]);
              restructured();
            }}
          >
            {addLabel}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

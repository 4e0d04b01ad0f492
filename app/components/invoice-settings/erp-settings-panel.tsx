import { useEffect, useId, useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import {
  Button,
  ConfirmDialog,
  DateTime,
  SortableTable,
  TextField,
  useToast,
  type TableColumn,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { Section } from '~/app/components/work-orders/settings/shared';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { ErpKindView, ErpSettingsView } from '~/core/invoicing/erp-settings.service';

/** What the ERP page's action answers. */
export interface ErpActionResult {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
  vendorMessage?: string | null;
  test?: { ok: boolean; companyName: string | null; error: string | null; vendorMessage: string | null };
}

/** The capabilities a kind's card lists, in this order. */
export const CAPABILITIES = [
  'sendInvoices',
  'invoiceFile',
  'readInvoice',
  'listArticles',
  'taxReduction',
  'supplierInvoices',
] as const;
/** API-key fields whose value is a secret (masked while typed). */
const SECRET_FIELD = /key|secret|password|token/i;
/** The sales accounts of Settings → ERP: one per VAT rate, and reverse VAT. */
export const SALES_ACCOUNTS = ['25', '12', '6', '0', 'reverse'] as const;

type Delivery = ErpSettingsView['deliveries'][number];

const BADGE = 'inline-flex items-center rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap';
const STATUS_CLASS: Record<Delivery['status'], string> = {
  pending: 'bg-blue-100 text-blue-900',
  sending: 'bg-blue-100 text-blue-900',
  delivered: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
  skipped: 'bg-slate-200 text-slate-800',
  needs_checking: 'bg-amber-100 text-amber-950',
};

function useErpFetcher(onResult?: (r: ErpActionResult) => void) {
  const fetcher = useFetcher<ErpActionResult>();
  const { t: tc } = useTranslation();
  const toast = useToast();
  const result = useFetcherResult(fetcher, (r) => {
    if (onResult) onResult(r);
    else if (r.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (r.code) toast.show({ kind: 'error', message: tc(r.code) });
  });
  const fields = result && !result.ok ? (result.fields ?? {}) : {};
  return {
    fetcher,
    busy: fetcher.state !== 'idle',
    err: (key: string) => fields[key]?.map((k) => tc(k)),
    post: (body: Record<string, unknown>) =>
      fetcher.submit(body as never, { method: 'post', encType: 'application/json' }),
  };
}

/** A failure's message in the page's words, with what the vendor said. */
export function useErpMessage() {
  const { t } = useTranslation('invoicesettings');
  const { t: tc } = useTranslation();
  return (code: string, name: string, vendorMessage?: string | null) => {
    const message = tc(code, { name });
    return vendorMessage ? t('erp.vendorSaid', { message, vendor: vendorMessage }) : message;
  };
}

export interface ErpSettingsPanelProps {
  settings: ErpSettingsView;
  canEdit: boolean;
}

/**
 * Settings → ERP (issue 14 item 6): which ERP the tenant uses and what each can do, connecting it
 * (the vendor's sign-in for an OAuth2 ERP, the key's fields for an API-key one), testing and
 * disconnecting, the accounts per VAT rate, and the last deliveries. Each part posts on its own.
 */
export function ErpSettingsPanel({ settings, canEdit }: ErpSettingsPanelProps) {
  const { t } = useTranslation('invoicesettings');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const current = settings.kinds.find((k) => k.id === settings.kind);
  // kept here, not in the conflict's own card: the card (and the section, once the last conflict is
  // chosen) goes away with the answer, and its message must still be shown
  const resolve = useErpFetcher((r) => {
    if (r.ok) toast.show({ kind: 'success', message: t('erp.conflicts.resolved') });
    else if (r.code) toast.show({ kind: 'error', message: tc(r.code) });
  });
  return (
    <div className="grid gap-6">
      <ConnectionSection settings={settings} current={current} canEdit={canEdit} />
      <KindSection settings={settings} canEdit={canEdit} />
      <AccountsSection settings={settings} canEdit={canEdit} />
      {settings.customerConflicts.length ? (
        <CustomerConflictsSection
          conflicts={settings.customerConflicts}
          erpName={settings.displayName}
          canEdit={canEdit}
          resolve={resolve}
        />
      ) : null}
      <Section id="erp-deliveries" title={t('erp.deliveries.title')} intro={t('erp.deliveries.intro')}>
        <DeliveryTable deliveries={settings.deliveries} erpName={settings.displayName} />
      </Section>
    </div>
  );
}

function ConnectionSection({
  settings,
  current,
  canEdit,
}: {
  settings: ErpSettingsView;
  current: ErpKindView | undefined;
  canEdit: boolean;
}) {
  const { t, i18n } = useTranslation('invoicesettings');
  const { t: tc } = useTranslation();
  const message = useErpMessage();
  const name = settings.displayName;
  const auth = current?.auth ?? 'none';
  const toast = useToast();
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  const connect = useErpFetcher((r) => {
    if (r.code) toast.show({ kind: 'error', message: message(r.code, name, r.vendorMessage) });
  });
  const [test, setTest] = useState<ErpActionResult['test'] | null>(null);
  const tester = useErpFetcher((r) => {
    if (r.test) setTest(r.test);
    else if (r.code) toast.show({ kind: 'error', message: message(r.code, name, r.vendorMessage) });
  });
  const disconnect = useErpFetcher((r) => {
    if (r.ok) {
      setTest(null);
      toast.show({ kind: 'success', message: t('erp.disconnected', { name }) });
    } else if (r.code) toast.show({ kind: 'error', message: message(r.code, name) });
  });
  // saving a key tries it at once; the answer shows where the test button's does
  const credentials = useErpFetcher((r) => {
    if (r.test) setTest(r.test);
    if (r.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (r.code) toast.show({ kind: 'error', message: message(r.code, name, r.vendorMessage) });
  });
  const [values, setValues] = useState<Record<string, string>>({});
  useEffect(() => setValues({}), [settings.kind, settings.connectedAt]);
  // another ERP: the last test's answer (and its failure) was about the one before
  useEffect(() => setTest(null), [settings.kind]);
  const missing = current?.missingOptions ?? [];
  // a file-based ERP says how its file is imported there (issue 31 item 5), where it has a text
  const fileHelpKey = `erp.fileImport.${settings.kind}`;
  const fileHelp =
    current?.capabilities.invoiceFile && i18n.exists(fileHelpKey, { ns: 'invoicesettings' }) ? t(fileHelpKey) : null;

  return (
    <Section id="erp-connection" title={t('erp.connection.title')}>
      <div className="mt-3 grid gap-4">
        <dl className="grid gap-1 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-4">
          <dt className="font-medium">{t('erp.connection.erp')}</dt>
          <dd>{name}</dd>
          <dt className="font-medium">{t('erp.connection.state')}</dt>
          <dd data-testid="erp-state">
            {auth === 'none'
              ? t('erp.connection.nothingToConnect')
              : settings.connected
                ? settings.companyName
                  ? t('erp.connection.connectedTo', { company: settings.companyName })
                  : t('erp.connection.connected')
                : t('erp.connection.notConnected')}
            {settings.connected && settings.connectedAt && auth !== 'none' ? (
              <>
                {' '}
                <span className="text-slate-600">
                  ({t('erp.connection.since')} <DateTime iso={settings.connectedAt} />)
                </span>
              </>
            ) : null}
          </dd>
          {settings.lastTestAt ? (
            <>
              <dt className="font-medium">{t('erp.connection.lastTest')}</dt>
              <dd>
                <DateTime iso={settings.lastTestAt} />{' '}
                {settings.lastTestError ? (
                  <span className="text-red-700">{settings.lastTestError}</span>
                ) : (
                  <span className="text-green-800">{t('erp.connection.lastTestOk')}</span>
                )}
              </dd>
            </>
          ) : null}
        </dl>

        {auth === 'api-key' && canEdit && current ? (
          <form
            className="grid gap-3"
            noValidate
            aria-label={t('erp.credentials.title', { name })}
            onSubmit={(e) => {
              e.preventDefault();
              void credentials.post({ intent: 'credentials', kind: settings.kind, credentials: values });
            }}
          >
            <p className="text-sm text-slate-600">{t('erp.credentials.help', { name })}</p>
            {current.fields.map((f) => (
              <TextField
                key={f}
                // a secret is masked; a user name or a client code is read as it is typed
                type={SECRET_FIELD.test(f) ? 'password' : 'text'}
                label={t(`erp.field.${f}`, { defaultValue: f })}
                value={values[f] ?? ''}
                onChange={(v) => setValues((old) => ({ ...old, [f]: v }))}
                autoComplete="off"
                isRequired
                placeholder={settings.connected ? t('erp.credentials.saved') : undefined}
                errorMessage={credentials.err(f)}
                className="max-w-md"
              />
            ))}
            <div>
              <Button type="submit" variant="primary" isPending={credentials.busy}>
                {t('erp.credentials.save')}
              </Button>
            </div>
          </form>
        ) : null}

        {fileHelp ? (
          <p className="max-w-prose rounded-lg bg-slate-50 p-3 text-sm text-slate-800" data-testid="erp-file-import">
            {fileHelp}
          </p>
        ) : null}

        {auth === 'oauth2' && missing.length ? (
          <p
            role="status"
            className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950"
            data-testid="erp-not-configured"
          >
            {t('erp.notConfigured', { name, options: missing.join(', ') })}
          </p>
        ) : null}

        {canEdit && auth !== 'none' ? (
          <div className="flex flex-wrap gap-2">
            {auth === 'oauth2' && !missing.length ? (
              <Button
                variant={settings.connected ? 'secondary' : 'primary'}
                isPending={connect.busy}
                onPress={() => void connect.post({ intent: 'connect' })}
              >
                {settings.connected ? t('erp.connectAgain', { name }) : t('erp.connect', { name })}
              </Button>
            ) : null}
            <Button
              variant="secondary"
              isPending={tester.busy}
              isDisabled={!settings.connected}
              onPress={() => void tester.post({ intent: 'test' })}
            >
              {t('erp.test')}
            </Button>
            {settings.connected ? (
              <Button variant="danger" isPending={disconnect.busy} onPress={() => setConfirmDisconnect(true)}>
                {t('erp.disconnect')}
              </Button>
            ) : null}
          </div>
        ) : null}

        <div aria-live="polite" data-testid="erp-test-result">
          {test ? (
            test.ok ? (
              <p className="rounded-lg bg-green-50 p-3 text-sm text-green-900">
                {t('erp.testOk', { company: test.companyName ?? name })}
              </p>
            ) : (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
                {t('erp.testFailed', {
                  message: message(test.error ?? 'ERP_UNREACHABLE', name, test.vendorMessage),
                })}
              </p>
            )
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        isOpen={confirmDisconnect}
        onOpenChange={setConfirmDisconnect}
        title={t('erp.disconnectTitle', { name })}
        message={t('erp.disconnectConfirm', { name })}
        confirmLabel={t('erp.disconnect')}
        variant="danger"
        onConfirm={() => {
          void disconnect.post({ intent: 'disconnect' });
          setConfirmDisconnect(false);
        }}
      />
    </Section>
  );
}

function KindSection({ settings, canEdit }: { settings: ErpSettingsView; canEdit: boolean }) {
  const { t } = useTranslation('invoicesettings');
  const save = useErpFetcher();
  const [kind, setKind] = useState(settings.kind);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => setKind(settings.kind), [settings.kind]);
  const chosen = settings.kinds.find((k) => k.id === kind);
  const changed = kind !== settings.kind;
  const submit = () => void save.post({ intent: 'kind', kind });
  const authText = (k: ErpKindView) =>
    k.auth === 'oauth2'
      ? t('erp.auth.oauth2', { name: k.displayName })
      : k.auth === 'api-key'
        ? t('erp.auth.apiKey')
        : t('erp.auth.none');
  return (
    <Section id="erp-kind" title={t('erp.kind.title')} intro={t('erp.kind.intro')}>
      <form
        className="mt-3 grid gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!changed) return;
          if (settings.connected && settings.kinds.find((k) => k.id === settings.kind)?.auth !== 'none')
            setConfirming(true);
          else submit();
        }}
      >
        <RadioGroup
          value={kind}
          onChange={setKind}
          isDisabled={!canEdit}
          className="grid gap-2"
          aria-describedby={save.err('kind') ? 'erp-kind-error' : undefined}
        >
          <Label className="text-sm font-medium text-gray-900">{t('erp.kind.label')}</Label>
          <div className="grid gap-3 sm:grid-cols-2">
            {settings.kinds.map((k) => {
              const can = CAPABILITIES.filter((c) => k.capabilities[c]);
              return (
                <Radio
                  key={k.id}
                  value={k.id}
                  className={({ isSelected, isFocusVisible, isDisabled }) =>
                    cx(
                      'flex min-h-11 cursor-pointer gap-3 rounded-lg p-3 ring-1',
                      isSelected ? 'bg-blue-50 ring-2 ring-blue-700' : 'bg-white ring-slate-300',
                      isFocusVisible && 'outline-2 outline-offset-2 outline-blue-600',
                      isDisabled && 'cursor-not-allowed opacity-80',
                    )
                  }
                >
                  {({ isSelected }) => (
                    <>
                      <span
                        aria-hidden="true"
                        className={cx(
                          'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border-2',
                          isSelected ? 'border-blue-700' : 'border-slate-400',
                        )}
                      >
                        {isSelected ? <span className="size-2.5 rounded-full bg-blue-700" /> : null}
                      </span>
                      <span className="grid min-w-0 gap-1 text-sm">
                        <span className="font-medium">
                          {k.displayName}
                          {k.id === settings.kind ? (
                            <span className="ms-2 text-xs font-normal text-slate-600">{t('erp.kind.current')}</span>
                          ) : null}
                        </span>
                        <span className="text-slate-600">{authText(k)}</span>
                        {can.length ? (
                          <ul className="grid gap-0.5" aria-label={t('erp.kind.canDo', { name: k.displayName })}>
                            {can.map((c) => (
                              <li key={c} className="flex gap-1">
                                <span aria-hidden="true">✓</span>
                                {t(`erp.capability.${c}`)}
                              </li>
                            ))}
                          </ul>
                        ) : (
                          <span className="text-slate-600">{t('erp.capability.nothing')}</span>
                        )}
                        {k.verification ? <Verification kind={k} /> : null}
                      </span>
                    </>
                  )}
                </Radio>
              );
            })}
          </div>
        </RadioGroup>
        {save.err('kind') ? (
          <p id="erp-kind-error" role="alert" className="text-sm text-red-700">
            {save.err('kind')!.join(' ')}
          </p>
        ) : null}
        {canEdit ? (
          <div>
            <Button type="submit" variant="primary" isDisabled={!changed} isPending={save.busy}>
              {chosen ? t('erp.kind.use', { name: chosen.displayName }) : t('save')}
            </Button>
          </div>
        ) : null}
      </form>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('erp.kind.switchTitle')}
        message={t('erp.kind.switchConfirm', { from: settings.displayName, to: chosen?.displayName ?? kind })}
        confirmLabel={chosen ? t('erp.kind.use', { name: chosen.displayName }) : t('save')}
        onConfirm={() => {
          submit();
          setConfirming(false);
        }}
      />
    </Section>
  );
}

/**
 * What of a plugin was checked against the vendor's own documentation and what was not (issue 31),
 * as the plugin declares it: what a real connection may still answer otherwise is said before it does.
 */
function Verification({ kind }: { kind: ErpKindView }) {
  const { t } = useTranslation('invoicesettings');
  const v = kind.verification!;
  const list = (keys: string[], label: string, mark: string, testId: string) =>
    keys.length ? (
      <span className="grid gap-0.5">
        <span className="text-xs font-medium text-slate-700">{label}</span>
        <ul className="grid gap-0.5 text-xs text-slate-700" aria-label={label} data-testid={testId}>
          {keys.map((key) => (
            <li key={key} className="flex gap-1">
              <span aria-hidden="true">{mark}</span>
              {t(`erp.verification.${key}`)}
            </li>
          ))}
        </ul>
      </span>
    ) : null;
  return (
    <span className="mt-1 grid gap-1">
      {list(v.verified, t('erp.verification.verified', { name: kind.displayName }), '✓', `erp-verified-${kind.id}`)}
      {list(
        v.unverified,
        t('erp.verification.unverified', { name: kind.displayName }),
        '?',
        `erp-unverified-${kind.id}`,
      )}
    </span>
  );
}

function AccountsSection({ settings, canEdit }: { settings: ErpSettingsView; canEdit: boolean }) {
  const { t } = useTranslation('invoicesettings');
  const save = useErpFetcher();
  const helpId = useId();
  const [sales, setSales] = useState<Record<string, string>>(() =>
    Object.fromEntries(SALES_ACCOUNTS.map((k) => [k, settings.accounts.sales[k] ?? ''])),
  );
  const [fee, setFee] = useState(settings.accounts.fee ?? '');
  const [rounding, setRounding] = useState(settings.accounts.rounding ?? '');
  // an ERP whose invoices name its own VAT code (Magenta): the code per rate, empty for the default
  const codes = settings.kinds.find((k) => k.id === settings.kind)?.vatCodes ?? null;
  const [vatCodes, setVatCodes] = useState<Record<string, string>>(() =>
    Object.fromEntries(SALES_ACCOUNTS.map((k) => [k, settings.accounts.vatCodes[k] ?? ''])),
  );
  const field = (label: string, value: string, onChange: (v: string) => void, key: string) => (
    <TextField
      key={key}
      label={label}
      value={value}
      onChange={onChange}
      inputMode="numeric"
      maxLength={6}
      autoComplete="off"
      errorMessage={save.err(key)}
      isDisabled={!canEdit}
      aria-describedby={helpId}
      className="w-full sm:w-44"
    />
  );
  return (
    <Section id="erp-accounts" title={t('erp.accounts.title')} intro={t('erp.accounts.intro')}>
      <form
        className="mt-3 grid gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save.post({
            intent: 'accounts',
            kind: settings.kind,
            accounts: { sales, fee, rounding, ...(codes ? { vatCodes } : {}) },
          });
        }}
      >
        <p id={helpId} className="text-sm text-slate-600">
          {t('erp.accounts.pattern')}
        </p>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-gray-900">{t('erp.accounts.sales')}</legend>
          <div className="flex flex-wrap gap-4">
            {SALES_ACCOUNTS.map((k) =>
              field(
                k === 'reverse' ? t('erp.accounts.reverse') : t('erp.accounts.vat', { rate: k }),
                sales[k] ?? '',
                (v) => setSales((s) => ({ ...s, [k]: v })),
                `accounts.sales.${k}`,
              ),
            )}
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-4">
          {field(t('erp.accounts.fee'), fee, setFee, 'accounts.fee')}
          {field(t('erp.accounts.rounding'), rounding, setRounding, 'accounts.rounding')}
        </div>
        {codes ? (
          <fieldset className="grid gap-2" data-testid="erp-vat-codes">
            <legend className="text-sm font-medium text-gray-900">
              {t('erp.vatCodes.title', { name: settings.displayName })}
            </legend>
            <p className="text-sm text-slate-600">
              {codes.guessed
                ? t('erp.vatCodes.guessed', { name: settings.displayName })
                : t('erp.vatCodes.intro', { name: settings.displayName })}
            </p>
            <div className="flex flex-wrap gap-4">
              {SALES_ACCOUNTS.map((k) => (
                <TextField
                  key={k}
                  label={k === 'reverse' ? t('erp.accounts.reverse') : t('erp.accounts.vat', { rate: k })}
                  value={vatCodes[k] ?? ''}
                  onChange={(v) => setVatCodes((c) => ({ ...c, [k]: v }))}
                  placeholder={codes.defaults[k]}
                  description={t('erp.vatCodes.default', { code: codes.defaults[k] })}
                  inputMode="numeric"
                  maxLength={4}
                  autoComplete="off"
                  errorMessage={save.err(`accounts.vatCodes.${k}`)}
                  isDisabled={!canEdit}
                  className="w-full sm:w-44"
                />
              ))}
            </div>
          </fieldset>
        ) : null}
        {canEdit ? (
          <div>
            <Button type="submit" variant="primary" isPending={save.busy}>
              {t('erp.accounts.save')}
            </Button>
          </div>
        ) : null}
      </form>
    </Section>
  );
}

type Conflict = ErpSettingsView['customerConflicts'][number];

/** An ERP customer as the office recognises it: number, name, organisation and VAT numbers. */
function candidateText(c: Conflict['candidates'][number]) {
  return [c.number, c.name, c.organizationalNumber, c.vatNumber].filter(Boolean).join(' · ');
}

/**
 * Customers whose first delivery met the ERP's own customers (issue 31 item 10): what Ordo has,
 * what the ERP has, and the office's choice — this one of the ERP's, or a new customer there. The
 * invoices the conflict stopped are sent again once it is chosen.
 */
type ErpFetcher = ReturnType<typeof useErpFetcher>;

export function CustomerConflictsSection({
  conflicts,
  erpName,
  canEdit,
  resolve,
}: {
  conflicts: Conflict[];
  erpName: string;
  canEdit: boolean;
  resolve: ErpFetcher;
}) {
  const { t } = useTranslation('invoicesettings');
  return (
    <Section
      id="erp-customer-conflicts"
      title={t('erp.conflicts.title')}
      intro={t('erp.conflicts.intro', { name: erpName })}
    >
      <ul className="mt-3 grid gap-4">
        {conflicts.map((c) => (
          <CustomerConflict key={c.customerId} conflict={c} erpName={erpName} canEdit={canEdit} save={resolve} />
        ))}
      </ul>
    </Section>
  );
}

function CustomerConflict({
  conflict,
  erpName,
  canEdit,
  save,
}: {
  conflict: Conflict;
  erpName: string;
  canEdit: boolean;
  save: ErpFetcher;
}) {
  const { t } = useTranslation('invoicesettings');
  const headingId = useId();
  const ours = [conflict.customerNumber, conflict.customerName, conflict.organizationalNumber]
    .filter(Boolean)
    .join(' · ');
  return (
    <li
      className="grid gap-3 rounded-lg p-3 ring-1 ring-amber-300"
      aria-labelledby={headingId}
      data-testid="erp-customer-conflict"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        {conflict.customerName}
      </h3>
      <p className="text-sm">{t(`erp.conflicts.reason.${conflict.reason}`, { name: erpName })}</p>
      <dl className="grid gap-1 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt className="font-medium">{t('erp.conflicts.inOrdo')}</dt>
        <dd>{ours}</dd>
        <dt className="font-medium">{t('erp.conflicts.inErp', { name: erpName })}</dt>
        <dd>
          <ul>
            {conflict.candidates.map((c) => (
              <li key={c.externalId}>{candidateText(c)}</li>
            ))}
          </ul>
        </dd>
      </dl>
      {conflict.createNew ? (
        <p role="status" className="text-sm text-slate-700">
          {t('erp.conflicts.creating', { name: erpName })}
        </p>
      ) : canEdit ? (
        <div className="flex flex-wrap gap-2">
          {conflict.candidates.map((c) => (
            <Button
              key={c.externalId}
              variant="secondary"
              isPending={save.busy}
              onPress={() =>
                void save.post({
                  intent: 'resolveConflict',
                  customerId: conflict.customerId,
                  choice: 'link',
                  externalId: c.externalId,
                })
              }
            >
              {t('erp.conflicts.link', { name: erpName, customer: c.number ? `${c.number} ${c.name}` : c.name })}
            </Button>
          ))}
          <Button
            variant="secondary"
            isPending={save.busy}
            onPress={() =>
              void save.post({ intent: 'resolveConflict', customerId: conflict.customerId, choice: 'create' })
            }
          >
            {t('erp.conflicts.create', { name: erpName })}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** The last deliveries to the ERP, newest first: the invoice, customer, state, tries and the error. */
export function DeliveryTable({ deliveries, erpName }: { deliveries: Delivery[]; erpName: string }) {
  const { t } = useTranslation('invoicesettings');
  const message = useErpMessage();
  const columns: TableColumn<Delivery>[] = [
    {
      id: 'invoice',
      header: t('erp.deliveries.invoice'),
      isRowHeader: true,
      render: (d) => (
        <Link to={`/invoices/${d.invoiceId}`} className="text-brand-700 underline">
          {d.invoiceNr ?? t('erp.deliveries.draft')}
        </Link>
      ),
    },
    { id: 'customer', header: t('erp.deliveries.customer'), render: (d) => d.customerName ?? '' },
    {
      id: 'status',
      header: t('erp.deliveries.status'),
      render: (d) => <span className={cx(BADGE, STATUS_CLASS[d.status])}>{t(`erp.delivery.${d.status}`)}</span>,
    },
    { id: 'attempts', header: t('erp.deliveries.attempts'), align: 'end', render: (d) => d.attempts },
    {
      id: 'error',
      header: t('erp.deliveries.error'),
      render: (d) =>
        d.errorCode || d.errorText ? (
          <span className="block max-w-xs whitespace-normal text-red-800">
            {d.errorCode ? message(d.errorCode, erpName, d.errorText) : d.errorText}
          </span>
        ) : (
          ''
        ),
    },
    {
      id: 'time',
      header: t('erp.deliveries.time'),
      render: (d) => <DateTime iso={d.deliveredAt ?? d.createdAt} />,
    },
  ];
  return (
    <SortableTable
      aria-label={t('erp.deliveries.title')}
      columns={columns}
      rows={deliveries}
      emptyState={t('erp.deliveries.empty')}
      className="mt-3"
    />
  );
}

/** How the vendor's sign-in ended when it did not connect (/settings/erp/callback). */
export interface CallbackFailure {
  code: string;
  vendorMessage: string | null;
  erpName: string;
}

/** The refusal, translated, with the vendor's words and the way back to Settings → ERP. */
export function ErpCallbackFailure({ failure }: { failure: CallbackFailure }) {
  const { t } = useTranslation('invoicesettings');
  const message = useErpMessage();
  return (
    <section className="max-w-xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h1 className="text-2xl font-semibold">{t('erp.callback.title', { name: failure.erpName })}</h1>
      <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-900">
        {message(failure.code, failure.erpName, failure.vendorMessage)}
      </p>
      <p className="mt-4">
        <Link to="/settings/erp" className="text-sm text-brand-700 underline">
          ← {t('erp.callback.back')}
        </Link>
      </p>
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, ConfirmDialog, Dialog, LinkButton, Menu, TextField, useToast } from '~/app/components/ui';
import { useFieldErrors, useResultToast, type ActionResult } from './shared';

export interface CodeItem {
  id: string;
  groupId: string;
  displayName: string;
  sortOrder: number;
  hasValue: boolean;
}

export interface GroupItem {
  id: string;
  displayName: string;
  sortOrder: number;
  codes: CodeItem[];
}

/** How long a shown value stays on screen. */
export const REVEAL_MS = 30_000;
const MASK = '••••••';

/**
 * Fetches one code's value from the server, which logs it (view.code or copy.code). A POST to a
 * resource route answered with Cache-Control: no-store, so no cache keeps the value.
 */
async function fetchValue(boId: string, codeId: string, intent: 'view' | 'copy'): Promise<string | null> {
  const res = await fetch(`/inventory/objects/${boId}/codes/${codeId}/value`, {
    method: 'POST',
    body: new URLSearchParams({ intent }),
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  const body = (await res.json().catch(() => ({ code: 'FAILED_TO_FETCH' }))) as {
    value?: string | null;
    code?: string;
  };
  if (!res.ok || body.code) throw new Error(body.code ?? 'FAILED_TO_FETCH');
  return body.value ?? null;
}

type Dialogs =
  | { kind: 'rename-group'; group: GroupItem }
  | { kind: 'delete-group'; group: GroupItem }
  | { kind: 'edit-code'; code: CodeItem }
  | { kind: 'delete-code'; code: CodeItem }
  | null;

/**
 * The object's access codes: groups of named codes. Values are never in the page: "Show" asks the
 * server for one value (logged) and hides it again after 30 seconds; "Copy" puts it on the
 * clipboard (logged as a copy). Editors add, rename, reorder and delete groups and codes.
 */
export function AccessCodes({
  boId,
  groups,
  canView,
  canEdit,
  canViewLog,
}: {
  boId: string;
  groups: GroupItem[];
  canView: boolean;
  canEdit: boolean;
  canViewLog: boolean;
}) {
  const { t } = useTranslation('objects');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  useResultToast(result);
  const err = useFieldErrors(fetcher.data);
  const [revealed, setRevealed] = useState<Record<string, string | null>>({});
  const [pending, setPending] = useState<string | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [dialog, setDialog] = useState<Dialogs>(null);

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach((timer) => clearTimeout(timer));
  }, []);
  useEffect(() => {
    if (result?.ok) setDialog(null);
  }, [result]);

  const hide = (codeId: string) => {
    clearTimeout(timers.current.get(codeId));
    timers.current.delete(codeId);
    setRevealed(({ [codeId]: _gone, ...rest }) => rest);
  };

  const show = async (codeId: string) => {
    setPending(codeId);
    try {
      const value = await fetchValue(boId, codeId, 'view');
      setRevealed((r) => ({ ...r, [codeId]: value }));
      clearTimeout(timers.current.get(codeId));
      timers.current.set(
        codeId,
        setTimeout(() => hide(codeId), REVEAL_MS),
      );
    } catch (e) {
      toast.show({ kind: 'error', message: tc((e as Error).message) });
    } finally {
      setPending(null);
    }
  };

  const copy = async (codeId: string) => {
    setPending(codeId);
    try {
      const value = fetchValue(boId, codeId, 'copy');
      // A clipboard item with a pending value keeps the click's permission while the server answers.
      if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write)
        await navigator.clipboard.write([
          new ClipboardItem({ 'text/plain': value.then((v) => new Blob([v ?? ''], { type: 'text/plain' })) }),
        ]);
      else await navigator.clipboard.writeText((await value) ?? '');
      toast.show({ kind: 'success', message: t('codes.copied') });
    } catch (e) {
      const code = (e as Error).message;
      toast.show({ kind: 'error', message: /^[A-Z_]+$/.test(code) ? tc(code) : t('codes.copyFailed') });
    } finally {
      setPending(null);
    }
  };

  const post = (values: Record<string, string>) => fetcher.submit(values, { method: 'post' });

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">{t('codes.help')}</p>
        {canViewLog ? (
          <LinkButton size="sm" href={`/inventory/objects/security-log?businessObjectId=${boId}`}>
            {t('securityLog.title')}
          </LinkButton>
        ) : null}
      </div>
      {groups.length === 0 ? <p className="text-sm text-slate-600">{t('codes.empty')}</p> : null}
      {groups.map((group, gi) => (
        <section key={group.id} aria-labelledby={`group-${group.id}`} className="rounded-lg border border-slate-200">
          <header className="flex items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2">
            <h3 id={`group-${group.id}`} className="font-semibold">
              {group.displayName}
            </h3>
            {canEdit ? (
              <Menu
                isIconOnly
                label={t('codes.groupActions', { name: group.displayName })}
                items={[
                  {
                    id: 'rename',
                    label: t('codes.renameGroup'),
                    onAction: () => setDialog({ kind: 'rename-group', group }),
                  },
                  {
                    id: 'up',
                    label: t('moveUp'),
                    isDisabled: gi === 0,
                    onAction: () => void post({ intent: 'group-move', id: group.id, direction: 'up' }),
                  },
                  {
                    id: 'down',
                    label: t('moveDown'),
                    isDisabled: gi === groups.length - 1,
                    onAction: () => void post({ intent: 'group-move', id: group.id, direction: 'down' }),
                  },
                  {
                    id: 'delete',
                    label: t('codes.deleteGroup'),
                    isDanger: true,
                    onAction: () => setDialog({ kind: 'delete-group', group }),
                  },
                ]}
              />
            ) : null}
          </header>
          {group.codes.length === 0 ? <p className="px-3 py-2 text-sm text-slate-600">{t('codes.noCodes')}</p> : null}
          <ul className="divide-y divide-slate-100">
            {group.codes.map((code, ci) => {
              const isShown = code.id in revealed;
              return (
                <li key={code.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
                  <span className="min-w-32 flex-1 font-medium">{code.displayName}</span>
                  <span
                    className="min-w-24 font-mono text-base tracking-wider"
                    aria-label={isShown ? t('codes.valueOf', { name: code.displayName }) : t('codes.hidden')}
                    aria-live="polite"
                  >
                    {!code.hasValue ? (
                      <span className="font-sans text-sm text-slate-500">{t('codes.noValue')}</span>
                    ) : isShown ? (
                      (revealed[code.id] ?? '')
                    ) : (
                      MASK
                    )}
                  </span>
                  <span className="flex flex-wrap gap-1">
                    {canView && code.hasValue ? (
                      <>
                        <Button
                          size="sm"
                          variant="secondary"
                          isPending={pending === code.id}
                          onPress={() => (isShown ? hide(code.id) : void show(code.id))}
                          aria-label={t(isShown ? 'codes.hideNamed' : 'codes.showNamed', { name: code.displayName })}
                        >
                          {isShown ? t('codes.hide') : t('codes.show')}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          onPress={() => void copy(code.id)}
                          aria-label={t('codes.copyNamed', { name: code.displayName })}
                        >
                          {t('codes.copy')}
                        </Button>
                      </>
                    ) : null}
                    {canEdit ? (
                      <Menu
                        isIconOnly
                        label={t('codes.codeActions', { name: code.displayName })}
                        items={[
                          {
                            id: 'edit',
                            label: t('codes.editCode'),
                            onAction: () => setDialog({ kind: 'edit-code', code }),
                          },
                          {
                            id: 'up',
                            label: t('moveUp'),
                            isDisabled: ci === 0,
                            onAction: () => void post({ intent: 'code-move', id: code.id, direction: 'up' }),
                          },
                          {
                            id: 'down',
                            label: t('moveDown'),
                            isDisabled: ci === group.codes.length - 1,
                            onAction: () => void post({ intent: 'code-move', id: code.id, direction: 'down' }),
                          },
                          {
                            id: 'delete',
                            label: t('codes.deleteCode'),
                            isDanger: true,
                            onAction: () => setDialog({ kind: 'delete-code', code }),
                          },
                        ]}
                      />
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ul>
          {canEdit ? <AddCode groupId={group.id} groupName={group.displayName} /> : null}
        </section>
      ))}
      {canEdit ? (
        <fetcher.Form method="post" className="flex flex-wrap items-start gap-2" noValidate key={groups.length}>
          <input type="hidden" name="intent" value="group-add" />
          <TextField
            name="displayName"
            label={t('codes.newGroup')}
            isRequired
            className="min-w-48 flex-1"
            errorMessage={fetcher.data?.intent === 'group-add' ? err('displayName') : undefined}
          />
          <Button type="submit" variant="secondary" className="sm:mt-6">
            {t('codes.addGroup')}
          </Button>
        </fetcher.Form>
      ) : null}

      <Dialog
        title={t('codes.renameGroup')}
        isOpen={dialog?.kind === 'rename-group'}
        onOpenChange={(open) => (open ? null : setDialog(null))}
      >
        {dialog?.kind === 'rename-group' ? (
          <fetcher.Form method="post" className="grid gap-4" noValidate>
            <input type="hidden" name="intent" value="group-edit" />
            <input type="hidden" name="id" value={dialog.group.id} />
            <TextField
              name="displayName"
              label={t('codes.groupName')}
              defaultValue={dialog.group.displayName}
              isRequired
              autoFocus
              errorMessage={err('displayName')}
            />
            <div className="flex justify-end">
              <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
                {t('save')}
              </Button>
            </div>
          </fetcher.Form>
        ) : null}
      </Dialog>
      <Dialog
        title={t('codes.editCode')}
        isOpen={dialog?.kind === 'edit-code'}
        onOpenChange={(open) => (open ? null : setDialog(null))}
      >
        {dialog?.kind === 'edit-code' ? (
          <fetcher.Form method="post" className="grid gap-4" noValidate autoComplete="off">
            <input type="hidden" name="intent" value="code-edit" />
            <input type="hidden" name="id" value={dialog.code.id} />
            <input type="hidden" name="previousName" value={dialog.code.displayName} />
            <TextField
              name="displayName"
              label={t('codes.codeName')}
              defaultValue={dialog.code.displayName}
              isRequired
              autoFocus
              errorMessage={err('displayName')}
            />
            <TextField
              name="value"
              type="password"
              autoComplete="new-password"
              label={t('codes.newValue')}
              description={t('codes.newValueHelp')}
              errorMessage={err('value')}
            />
            {dialog.code.hasValue ? (
              <label className="flex min-h-10 items-center gap-2 text-sm">
                <input type="checkbox" name="clearValue" value="true" className="size-5 accent-red-700" />
                {t('codes.clearValue')}
              </label>
            ) : null}
            <div className="flex justify-end">
              <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
                {t('save')}
              </Button>
            </div>
          </fetcher.Form>
        ) : null}
      </Dialog>
      <ConfirmDialog
        isOpen={dialog?.kind === 'delete-group'}
        onOpenChange={(open) => (open ? null : setDialog(null))}
        title={t('codes.deleteGroup')}
        message={
          dialog?.kind === 'delete-group'
            ? t('codes.deleteGroupConfirm', { name: dialog.group.displayName, count: dialog.group.codes.length })
            : ''
        }
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          if (dialog?.kind === 'delete-group') void post({ intent: 'group-delete', id: dialog.group.id });
          setDialog(null);
        }}
      />
      <ConfirmDialog
        isOpen={dialog?.kind === 'delete-code'}
        onOpenChange={(open) => (open ? null : setDialog(null))}
        title={t('codes.deleteCode')}
        message={dialog?.kind === 'delete-code' ? t('codes.deleteCodeConfirm', { name: dialog.code.displayName }) : ''}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          if (dialog?.kind === 'delete-code') void post({ intent: 'code-delete', id: dialog.code.id });
          setDialog(null);
        }}
      />
    </div>
  );
}

/** A new code in a group: its name and (optionally) its value, typed into a masked field. */
function AddCode({ groupId, groupName }: { groupId: string; groupName: string }) {
  const { t } = useTranslation('objects');
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  useResultToast(result);
  const err = useFieldErrors(fetcher.data);
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    if (result?.ok) setFormKey((k) => k + 1);
  }, [result]);
  return (
    <fetcher.Form
      method="post"
      key={formKey}
      noValidate
      autoComplete="off"
      aria-label={t('codes.addCodeTo', { name: groupName })}
      className="grid gap-2 border-t border-slate-200 p-3 sm:grid-cols-[1fr_1fr_auto]"
    >
      <input type="hidden" name="intent" value="code-add" />
      <input type="hidden" name="groupId" value={groupId} />
      <TextField name="displayName" label={t('codes.codeName')} isRequired errorMessage={err('displayName')} />
      <TextField
        name="value"
        type="password"
        autoComplete="new-password"
        label={t('codes.value')}
        errorMessage={err('value')}
      />
      <div className="sm:pt-6">
        <Button type="submit" variant="secondary" isPending={fetcher.state !== 'idle'}>
          {t('codes.addCode')}
        </Button>
      </div>
    </fetcher.Form>
  );
}

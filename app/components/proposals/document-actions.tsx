import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Dialog, Menu, TextField, useToast, type MenuItemDef } from '~/app/components/ui';

type EmailResult =
  | { ok: true; message: 'EMAIL_SENT_TO'; recipient: string }
  | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export interface DocumentActionsProps {
  /** The document route (`/proposals/{id}/document`, `/sales/{id}/document`). */
  documentPath: string;
  /** The proposal's number, for the e-mail dialog's text. */
  number: string | number;
  /** Whether "E-mail PDF" is offered (proposals, to those who may edit them). */
  canEmail?: boolean;
  /** The address the e-mail dialog starts with: the proposal's contact e-mail. */
  defaultEmail?: string | null;
}

/**
 * The proposal and sales-order screens' "Documents" menu: download as PDF or Word, and for a
 * proposal e-mail the PDF (a dialog with the recipient, prefilled with the contact's address). A
 * download goes through the browser (the answer is an attachment, the page stays); the e-mail
 * posts to the document route and says "E-mail sent to …", or why it was not.
 */
export function DocumentActions({ documentPath, number, canEmail = false, defaultEmail = null }: DocumentActionsProps) {
  const { t } = useTranslation('proposaldocuments');
  const [emailOpen, setEmailOpen] = useState(false);
  // A new dialog (and fetcher) each time it opens, so an earlier attempt's error does not linger.
  const [emailRound, setEmailRound] = useState(0);
  const download = (format: 'pdf' | 'docx') => window.location.assign(`${documentPath}?format=${format}`);
  const items: MenuItemDef[] = [
    { id: 'pdf', label: t('menu.pdf'), onAction: () => download('pdf') },
    { id: 'docx', label: t('menu.word'), onAction: () => download('docx') },
    ...(canEmail
      ? [
          {
            id: 'email',
            label: t('menu.emailPdf'),
            onAction: () => {
              setEmailRound((n) => n + 1);
              setEmailOpen(true);
            },
          },
        ]
      : []),
  ];
  return (
    <>
      <Menu label={t('menu.documents')} items={items} />
      {canEmail ? (
        <EmailDialog
          key={emailRound}
          action={documentPath}
          number={String(number)}
          defaultEmail={defaultEmail}
          isOpen={emailOpen}
          onOpenChange={setEmailOpen}
        />
      ) : null}
    </>
  );
}

function EmailDialog({
  action,
  number,
  defaultEmail,
  isOpen,
  onOpenChange,
}: {
  action: string;
  number: string;
  defaultEmail: string | null;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation('proposaldocuments');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<EmailResult>();
  const busy = fetcher.state !== 'idle';
  const result = fetcher.data;
  const [shown, setShown] = useState<EmailResult | undefined>(undefined);

  useEffect(() => {
    if (!result || result === shown || fetcher.state !== 'idle') return;
    setShown(result);
    if (result.ok) {
      toast.show({ kind: 'success', message: tc(result.message, { recipient: result.recipient }) });
      onOpenChange(false);
    } else if (!result.fields) toast.show({ kind: 'error', message: tc(result.code) });
  }, [result, shown, fetcher.state, toast, tc, onOpenChange]);

  const fieldError =
    result && !result.ok && result === shown ? result.fields?.emailTarget?.map((k) => tc(k)) : undefined;
  return (
    <Dialog
      title={t('email.title')}
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={!busy}
      isKeyboardDismissDisabled={busy}
      size="sm"
    >
      {({ close }) => (
        <fetcher.Form method="post" action={action} className="flex flex-col gap-4">
          <p>{t('email.intro', { number })}</p>
          <input type="hidden" name="templateId" value="default" />
          <TextField
            name="emailTarget"
            type="email"
            label={t('email.recipient')}
            defaultValue={defaultEmail ?? ''}
            isRequired
            autoFocus
            errorMessage={fieldError}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {t('email.cancel')}
            </Button>
            <Button type="submit" variant="primary" isPending={busy}>
              {t('email.send')}
            </Button>
          </div>
        </fetcher.Form>
      )}
    </Dialog>
  );
}

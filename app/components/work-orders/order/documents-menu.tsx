import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Dialog, Menu, TextField, useToast, type MenuItemDef } from '~/app/components/ui';
import type { DocumentsPanelData } from '~/core/work-orders/documents.service';

export type { DocumentsPanelData };

type EmailResult =
  | { ok: true; message: 'EMAIL_SENT_TO'; recipient: string }
  | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export interface DocumentsMenuProps {
  workOrderId: string;
  /** The order number, for the dialog's text. */
  number: string;
  data: DocumentsPanelData;
  /** The address the e-mail dialog starts with (the order's contact, else the customer's). */
  defaultEmail: string | null;
}

/**
 * The order screen's "Documents" menu: download the order as PDF or Word, or e-mail the PDF (a
 * dialog with the recipient, prefilled; the e-mail item only for users who may). Downloads go
 * through the browser (the answer is an attachment, the page stays); the e-mail posts to the
 * order's document route and says "E-mail sent to …" when it has left.
 */
export function DocumentsMenu({ workOrderId, number, data, defaultEmail }: DocumentsMenuProps) {
  const { t } = useTranslation('documents');
  const [emailOpen, setEmailOpen] = useState(false);
  // A new dialog (and fetcher) each time it opens, so an earlier attempt's error does not linger.
  const [emailRound, setEmailRound] = useState(0);
  const base = `/work-orders/${encodeURIComponent(workOrderId)}/document`;
  const many = data.templates.length > 1;
  const download = (format: 'pdf' | 'docx', templateId: string) => {
    window.location.assign(`${base}?format=${format}&templateId=${encodeURIComponent(templateId)}`);
  };
  const items: MenuItemDef[] = [
    ...data.templates.flatMap((tpl) => [
      {
        id: `pdf-${tpl.id}`,
        label: many ? `${t('menu.downloadPdf')} (${tpl.name})` : t('menu.downloadPdf'),
        onAction: () => download('pdf', tpl.id),
      },
      {
        id: `docx-${tpl.id}`,
        label: many ? `${t('menu.downloadWord')} (${tpl.name})` : t('menu.downloadWord'),
        onAction: () => download('docx', tpl.id),
      },
    ]),
    ...(data.canEmail
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
      {data.canEmail ? (
        <EmailDialog
          key={emailRound}
          action={base}
          number={number}
          templates={data.templates}
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
  templates,
  defaultEmail,
  isOpen,
  onOpenChange,
}: {
  action: string;
  number: string;
  templates: DocumentsPanelData['templates'];
  defaultEmail: string | null;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation('documents');
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
          <input type="hidden" name="templateId" value={templates[0]?.id ?? 'default'} />
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

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailDocumentDialog } from '~/app/components/documents/email-document-dialog';
import { Menu, type MenuItemDef } from '~/app/components/ui';
import type { DocumentsPanelData } from '~/core/work-orders/documents.service';

export type { DocumentsPanelData };

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
        <EmailDocumentDialog
          key={emailRound}
          action={base}
          templateId={data.templates[0]?.id ?? 'default'}
          defaultEmail={defaultEmail}
          isOpen={emailOpen}
          onOpenChange={setEmailOpen}
          text={{
            title: t('email.title'),
            intro: t('email.intro', { number }),
            recipient: t('email.recipient'),
            cancel: t('email.cancel'),
            send: t('email.send'),
          }}
        />
      ) : null}
    </>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailDocumentDialog } from '~/app/components/documents/email-document-dialog';
import { Menu, type MenuItemDef } from '~/app/components/ui';

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
        <EmailDocumentDialog
          key={emailRound}
          action={documentPath}
          templateId="default"
          defaultEmail={defaultEmail}
          isOpen={emailOpen}
          onOpenChange={setEmailOpen}
          text={{
            title: t('email.title'),
            intro: t('email.intro', { number: String(number) }),
            recipient: t('email.recipient'),
            cancel: t('email.cancel'),
            send: t('email.send'),
          }}
        />
      ) : null}
    </>
  );
}

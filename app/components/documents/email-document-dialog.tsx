import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Dialog, TextField, useToast } from '~/app/components/ui';

type EmailResult =
  | { ok: true; message: 'EMAIL_SENT_TO'; recipient: string }
  | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export interface EmailDocumentDialogProps {
  /** The document route the e-mail posts to (`{emailTarget, templateId}`). */
  action: string;
  templateId: string;
  /** The address the dialog starts with (the contact's). */
  defaultEmail: string | null;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's texts, in the caller's namespace. */
  text: { title: string; intro: string; recipient: string; cancel: string; send: string };
}

/**
 * E-mails a document's PDF (the work-order, proposal and sales-order documents menus): asks for
 * the recipient, posts to the document route, says "E-mail sent to …" and closes, or shows why it
 * was not sent (a field error under the address, otherwise a notice). Open a new one (a new key)
 * each time so an earlier attempt's error does not linger.
 */
export function EmailDocumentDialog({
  action,
  templateId,
  defaultEmail,
  isOpen,
  onOpenChange,
  text,
}: EmailDocumentDialogProps) {
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
      title={text.title}
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={!busy}
      isKeyboardDismissDisabled={busy}
      size="sm"
    >
      {({ close }) => (
        <fetcher.Form method="post" action={action} className="flex flex-col gap-4">
          <p>{text.intro}</p>
          <input type="hidden" name="templateId" value={templateId} />
          <TextField
            name="emailTarget"
            type="email"
            label={text.recipient}
            defaultValue={defaultEmail ?? ''}
            isRequired
            autoFocus
            errorMessage={fieldError}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onPress={close} isDisabled={busy}>
              {text.cancel}
            </Button>
            <Button type="submit" variant="primary" isPending={busy}>
              {text.send}
            </Button>
          </div>
        </fetcher.Form>
      )}
    </Dialog>
  );
}

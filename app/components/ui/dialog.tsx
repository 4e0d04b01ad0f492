import { useState, type ReactNode } from 'react';
import { Dialog as AriaDialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonVariant } from './button';
import { cx } from './class-names';
import { CloseIcon } from './icons';

export { DialogTrigger };

export interface DialogProps {
  /** Heading and accessible name, already translated. */
  title: string;
  children: ReactNode | ((opts: { close: () => void }) => ReactNode);
  /** Buttons at the bottom (e.g. Cancel / Save); receives `close`. */
  footer?: ReactNode | ((opts: { close: () => void }) => ReactNode);
  /** Controlled open state; leave out inside a `<DialogTrigger>`. */
  isOpen?: boolean;
  onOpenChange?: (isOpen: boolean) => void;
  /** Whether a click outside closes it. Default true. */
  isDismissable?: boolean;
  /** Stops Escape from closing it, e.g. while its action is under way. */
  isKeyboardDismissDisabled?: boolean;
  size?: 'sm' | 'md' | 'lg';
  /** `alertdialog` for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
}

const SIZE_CLASS = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-3xl' } as const;

/**
 * A modal dialog with a title and a close button. Focus is trapped inside and returns to the
 * trigger; Escape closes. On phones it is a sheet along the bottom edge.
 *
 * Either wrap it with its trigger: `<DialogTrigger><Button>…</Button><Dialog title="…">…</Dialog></DialogTrigger>`,
 * or control it with `isOpen` / `onOpenChange`.
 */
export function Dialog({
  title,
  children,
  footer,
  isOpen,
  onOpenChange,
  isDismissable = true,
  isKeyboardDismissDisabled,
  size = 'md',
  role = 'dialog',
}: DialogProps) {
  const { t } = useTranslation('ui');
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
      isKeyboardDismissDisabled={isKeyboardDismissDisabled}
      className="fixed inset-0 z-50 flex items-end justify-center bg-gray-950/40 sm:items-center sm:p-4"
    >
      <Modal
        className={cx(
          'flex max-h-[90dvh] w-full flex-col overflow-hidden rounded-t-xl bg-white shadow-xl sm:rounded-xl',
          SIZE_CLASS[size],
        )}
      >
        <AriaDialog role={role} className="flex min-h-0 flex-1 flex-col outline-none">
          {({ close }) => (
            <>
              <header className="flex items-start justify-between gap-3 border-b border-gray-200 py-2 ps-4 pe-2">
                <Heading slot="title" className="self-center text-lg font-semibold text-gray-900">
                  {title}
                </Heading>
                <Button variant="ghost" isIconOnly aria-label={t('close')} onPress={close}>
                  <CloseIcon />
                </Button>
              </header>
              <div className="min-h-0 flex-1 overflow-y-auto p-4 text-gray-800">
                {typeof children === 'function' ? children({ close }) : children}
              </div>
              {footer && (
                <footer className="flex flex-col-reverse gap-2 border-t border-gray-200 p-4 sm:flex-row sm:justify-end">
                  {typeof footer === 'function' ? footer({ close }) : footer}
                </footer>
              )}
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface ConfirmDialogProps {
  /** Heading, already translated (e.g. "Delete work order"). */
  title: string;
  /** The question; "Are you sure?" (spec ARE_YOU_SURE) unless told. */
  message?: ReactNode;
  /** Confirm button text; "Confirm" unless told. */
  confirmLabel?: string;
  /** Cancel button text; "Cancel" unless told. */
  cancelLabel?: string;
  /** `danger` for deleting and other things that cannot be undone. */
  variant?: Extract<ButtonVariant, 'primary' | 'danger'>;
  isOpen?: boolean;
  onOpenChange?: (isOpen: boolean) => void;
  /**
   * Runs on confirm. A returned promise keeps the dialog open with a pending button until it
   * settles; it closes on success and stays open on failure (the caller shows the error).
   */
  onConfirm: () => void | Promise<unknown>;
  /** Pending from outside, e.g. while a React Router fetcher submits. */
  isPending?: boolean;
}

/** Asks before an action (delete, accept, reopen). Focus starts on Cancel, the safe choice. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel,
  variant = 'primary',
  isOpen,
  onOpenChange,
  onConfirm,
  isPending = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation('ui');
  const [isRunning, setRunning] = useState(false);
  const busy = isPending || isRunning;

  async function confirm(close: () => void) {
    setRunning(true);
    try {
      await onConfirm();
      close();
    } catch {
      // The caller reports the failure (toast); the dialog stays so the user can retry or cancel.
    } finally {
      setRunning(false);
    }
  }

  return (
    <Dialog
      title={title}
      role="alertdialog"
      size="sm"
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={!busy}
      isKeyboardDismissDisabled={busy}
      footer={({ close }) => (
        <>
          <Button variant="secondary" onPress={close} isDisabled={busy} autoFocus>
            {cancelLabel ?? t('cancel')}
          </Button>
          <Button variant={variant} isPending={busy} onPress={() => void confirm(close)}>
            {confirmLabel ?? t('confirm')}
          </Button>
        </>
      )}
    >
      {typeof message === 'string' || message === undefined ? <p>{message ?? t('areYouSure')}</p> : message}
    </Dialog>
  );
}

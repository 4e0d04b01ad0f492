import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '~/app/components/ui';

interface Pending {
  title: string;
  message: string;
  confirmLabel: string;
  run: () => void;
}

/** One "are you sure?" dialog for a section's delete buttons: `ask({…})` opens it, confirm runs. */
export function useConfirm(): [(p: Pending) => void, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const dialog = (
    <ConfirmDialog
      isOpen={pending !== null}
      onOpenChange={(open) => (open ? undefined : setPending(null))}
      title={pending?.title ?? ''}
      message={pending?.message}
      confirmLabel={pending?.confirmLabel}
      variant="danger"
      onConfirm={() => {
        pending?.run();
        setPending(null);
      }}
    />
  );
  return [setPending, dialog];
}

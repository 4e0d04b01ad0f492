import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '~/app/components/ui';

/**
 * Asks before leaving an autosaving screen whose last save was refused (an error or someone
 * else's newer version): staying keeps what was typed on screen; leaving drops it.
 */
export function LeaveUnsavedDialog({
  autosave,
}: {
  autosave: { leaveRefused: boolean; leave: () => void; stay: () => void };
}) {
  const { t } = useTranslation('proposals');
  return (
    <ConfirmDialog
      isOpen={autosave.leaveRefused}
      onOpenChange={(open) => !open && autosave.stay()}
      title={t('save.leaveTitle')}
      message={t('save.leaveMessage')}
      confirmLabel={t('save.leaveAction')}
      variant="danger"
      onConfirm={autosave.leave}
    />
  );
}

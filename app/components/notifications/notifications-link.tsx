import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The way from a person's own page to their mail choices (Settings → notifications; decision 066). */
export function NotificationsLink() {
  const { t } = useTranslation('notifications');
  return (
    <Link to="/settings/notifications" className="inline-block min-h-10 py-2 text-brand-700 underline">
      {t('link')}
    </Link>
  );
}

import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { buttonClass } from '~/app/components/ui';
import { useCan } from '~/app/lib/can';

/**
 * "Export (CSV)" on a register's list: the file has the rows the list's current filters select
 * (search, status, …), not just the page shown. Shown only with settings:import_export.
 */
export function ExportLink({ register }: { register: 'customers' | 'objects' | 'articles' }) {
  const { t } = useTranslation('importexport');
  const can = useCan();
  const [params] = useSearchParams();
  if (!can('settings:import_export')) return null;
  const query = new URLSearchParams(params);
  for (const paging of ['offset', 'limit', 'page', 'size']) query.delete(paging);
  const href = `/settings/import-export/${register}${query.size ? `?${query}` : ''}`;
  return (
    // A download, not a page: a plain link, so the router leaves it to the browser.
    <a href={href} download className={buttonClass({ variant: 'secondary' })}>
      {t('export.filtered')}
    </a>
  );
}

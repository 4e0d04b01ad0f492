import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/settings.access-levels';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { LinkButton, SortableTable, type SortDescriptor, type TableColumn } from '~/app/components/ui';
import { AccessNav } from '~/app/components/access/access-nav';
import { listAccessLevels, type TAccessLevel } from '~/core/access-levels/access-level.service';
import { workOrderLimitKey } from '~/core/access-levels/permission-keys';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';
import { useRedirectToast } from '~/app/components/shell/use-action-toast';

/** Settings → access levels (spec section 3): the levels with what they grant. */
export const middleware = guard({ permission: 'accesslevels:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const levels = await run(context, (ctx) => listAccessLevels(ctx));
  return {
    levels,
    canEdit: hasAccess(auth, { permission: 'accesslevels:edit' }),
    canSeeModules: hasAccess(auth, { permission: 'settings:read' }),
  };
}

type SortKey = 'name' | 'permissions' | 'users';

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.accessLevels', null, { within: 'settings.title' });

export default function AccessLevels({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('access');
  const { t: tc } = useTranslation();
  useRedirectToast({ created: tc('SUCCESSFULLY_SAVED'), deleted: t('level.deleted') });
  const [sort, setSort] = useState<SortDescriptor>({ column: 'name', direction: 'ascending' });
  const rows = useMemo(() => {
    const key = sort.column as SortKey;
    const value = (l: TAccessLevel) =>
      key === 'permissions' ? l.permissions.length : key === 'users' ? l.userCount : l.displayName;
    const sorted = [...loaderData.levels].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      return typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x).localeCompare(String(y), i18n.language, { sensitivity: 'base' });
    });
    return sort.direction === 'descending' ? sorted.reverse() : sorted;
  }, [loaderData.levels, sort, i18n.language]);

  const columns: TableColumn<TAccessLevel>[] = [
    {
      id: 'name',
      header: t('levels.col.name'),
      isRowHeader: true,
      allowsSorting: true,
      render: (l) => <span className="font-medium">{l.displayName}</span>,
    },
    {
      id: 'description',
      header: t('levels.col.description'),
      render: (l) => <span className="block max-w-md whitespace-normal text-gray-700">{l.description}</span>,
    },
    {
      id: 'permissions',
      header: t('levels.col.permissions'),
      allowsSorting: true,
      align: 'end',
      render: (l) => l.permissions.length,
    },
    { id: 'limit', header: t('levels.col.limit'), render: (l) => t(workOrderLimitKey(l.limit)) },
    { id: 'users', header: t('levels.col.users'), allowsSorting: true, align: 'end', render: (l) => l.userCount },
  ];

  return (
    <section className="flex flex-col gap-4">
      {loaderData.canSeeModules ? <AccessNav /> : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold">{t('levels.title')}</h1>
          <p className="mt-1 max-w-prose text-sm text-gray-600">{t('levels.intro')}</p>
        </div>
        {loaderData.canEdit ? (
          <LinkButton href="/settings/access-levels/new" variant="primary">
            {t('levels.new')}
          </LinkButton>
        ) : null}
      </div>
      {loaderData.canEdit ? null : <p className="text-sm text-gray-600">{t('levels.readOnly')}</p>}
      <SortableTable
        aria-label={t('levels.title')}
        columns={columns}
        rows={rows}
        sortDescriptor={sort}
        onSortChange={setSort}
        getRowHref={(l) => `/settings/access-levels/${l.id}`}
        emptyState={t('levels.empty')}
      />
    </section>
  );
}

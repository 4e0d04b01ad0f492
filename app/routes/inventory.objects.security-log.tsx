import { parseDate } from '@internationalized/date';
import { useTranslation } from 'react-i18next';
import { Form, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/inventory.objects.security-log';
import { guard, run } from '~/app/lib/guard.server';
import { Button, DatePicker, Select, SortableTable } from '~/app/components/ui';
import { ObjectPicker } from '~/app/components/inventory/pickers/object-picker';
import { Card, DateTime, Pager } from '~/app/components/objects/shared';
import {
  listSecurityLog,
  securityLogUsers,
  type CodeRef,
  type SecurityLogEntry,
} from '~/core/business-objects/access-codes.service';
import { SECURITY_LOG_TYPES } from '~/core/business-objects/security-log-types';
import { boLabel, getBusinessObject } from '~/core/business-objects/business-object.service';
import { isUuid } from '~/core/errors/validation';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Inventory → objects → security log: who saw, copied or changed which access code, newest
 * first, filtered by object, user, type and dates (bo:codes:view_log).
 */
export const middleware = guard({ permission: 'bo:codes:view_log' });

const PAGE = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function loader({ request, context }: Route.LoaderArgs) {
  const p = new URL(request.url).searchParams;
  const offset = Math.max(0, Number(p.get('offset')) || 0);
  const pick = (k: string, ok: (v: string) => boolean) => {
    const v = p.get(k);
    return v && ok(v) ? v : undefined;
  };
  const filter = {
    businessObjectId: pick('businessObjectId', isUuid),
    userId: pick('userId', isUuid),
    type: pick('type', (v) => (SECURITY_LOG_TYPES as readonly string[]).includes(v)),
    startTime: pick('startTime', (v) => DATE.test(v)),
    endTime: pick('endTime', (v) => DATE.test(v)),
  };
  return run(context, async (ctx) => {
    const log = await listSecurityLog(ctx, { ...filter, from: offset, size: PAGE });
    const object = filter.businessObjectId
      ? await getBusinessObject(ctx, filter.businessObjectId).catch(() => null)
      : null;
    return {
      ...log,
      offset,
      limit: PAGE,
      users: await securityLogUsers(ctx),
      object: object ? { id: object.bo.id, label: boLabel(object.bo) } : null,
    };
  });
}

const dateValue = (v: string | null) => {
  try {
    return v && DATE.test(v) ? parseDate(v) : null;
  } catch {
    return null;
  }
};

function Ref({ value }: { value: CodeRef | null }) {
  if (!value) return null;
  return (
    <span>{value.displayName === value.groupName ? value.groupName : `${value.groupName} › ${value.displayName}`}</span>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.securityLog');

export default function SecurityLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const [params] = useSearchParams();
  const columns = [
    {
      id: 'time',
      header: t('securityLog.time'),
      isRowHeader: true,
      render: (l: SecurityLogEntry) => <DateTime iso={l.timestamp} />,
    },
    { id: 'type', header: t('securityLog.type'), render: (l: SecurityLogEntry) => t(`securityLog.types.${l.type}`) },
    {
      id: 'object',
      header: t('field.serialCode'),
      render: (l: SecurityLogEntry) => (
        <Link to={`/inventory/objects/${l.businessObjectId}?tab=codes`} className="text-blue-800 underline">
          {l.businessObjectSerialCode}
        </Link>
      ),
    },
    {
      id: 'code',
      header: t('securityLog.code'),
      render: (l: SecurityLogEntry) =>
        l.from && l.to && JSON.stringify(l.from) !== JSON.stringify(l.to) ? (
          <span>
            <Ref value={l.from} /> → <Ref value={l.to} />
          </span>
        ) : (
          <Ref value={l.to ?? l.from} />
        ),
    },
    { id: 'user', header: t('securityLog.user'), render: (l: SecurityLogEntry) => l.userName },
  ];
  return (
    <Card>
      <Link to="/inventory/objects" className="text-sm text-blue-800 underline">
        ← {t('objects.back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('securityLog.title')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('securityLog.help')}</p>
      <Form method="get" className="mt-4 grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
        <ObjectPicker name="businessObjectId" label={t('securityLog.object')} defaultSelected={loaderData.object} />
        <Select
          name="userId"
          label={t('securityLog.user')}
          defaultSelectedKey={params.get('userId') ?? ''}
          items={[
            { id: '', label: t('securityLog.allUsers') },
            ...loaderData.users.map((u) => ({ id: u.id, label: u.name })),
          ]}
        />
        <Select
          name="type"
          label={t('securityLog.type')}
          defaultSelectedKey={params.get('type') ?? ''}
          items={[
            { id: '', label: t('securityLog.allTypes') },
            ...SECURITY_LOG_TYPES.map((type) => ({ id: type, label: t(`securityLog.types.${type}`) })),
          ]}
        />
        <DatePicker name="startTime" label={t('securityLog.from')} defaultValue={dateValue(params.get('startTime'))} />
        <DatePicker name="endTime" label={t('securityLog.to')} defaultValue={dateValue(params.get('endTime'))} />
        <div className="flex items-start gap-2 sm:pt-6">
          <Button type="submit" variant="secondary">
            {t('filter.apply')}
          </Button>
          <Link
            to="/inventory/objects/security-log"
            className="inline-flex min-h-10 items-center px-2 text-sm text-blue-800 underline"
          >
            {t('filter.clear')}
          </Link>
        </div>
      </Form>
      <p className="mt-4 text-sm text-slate-500" aria-live="polite">
        {t('securityLog.count', { count: loaderData.totalCount })}
      </p>
      <SortableTable
        aria-label={t('securityLog.title')}
        className="mt-2"
        columns={columns}
        rows={loaderData.logs}
        emptyState={t('securityLog.empty')}
      />
      <Pager offset={loaderData.offset} limit={loaderData.limit} total={loaderData.totalCount} search={params} />
    </Card>
  );
}

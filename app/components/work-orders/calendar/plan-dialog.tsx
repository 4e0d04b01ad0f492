import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, DatePicker, Dialog, Select, dateValueOf } from '~/app/components/ui';
import { formatClock, DEFAULT_PLAN_MINUTES, DEFAULT_START_MINUTES } from '~/core/work-orders/calendar-rules';
import type { BoardUser, BoardItem, UnscheduledOrder } from '~/core/work-orders/schedule.service';

export type PlanDraft = { mode: 'plan'; order: UnscheduledOrder; date: string } | { mode: 'edit'; item: BoardItem };

export interface PlanValues {
  workOrderId?: string;
  id?: string;
  version?: number;
  userId: string;
  date: string;
  startTime: string;
  endTime: string;
}

const inputClass =
  'mt-1 block min-h-11 w-full rounded-lg border border-gray-300 bg-white px-3 text-base sm:min-h-9 sm:text-sm focus-visible:outline-2 focus-visible:outline-blue-600';

/**
 * Planning without a mouse, and a plan's details: person, day, start and end (24-hour). An end
 * before the start runs past midnight. The edit form also opens the order and removes the plan.
 */
export function PlanDialog({
  draft,
  users,
  me,
  busy,
  fields,
  onClose,
  onSave,
  onRemove,
}: {
  draft: PlanDraft;
  users: BoardUser[];
  me: string;
  busy: boolean;
  fields?: Record<string, string[]>;
  onClose: () => void;
  onSave: (values: PlanValues) => void;
  onRemove: (item: BoardItem) => void;
}) {
  const { t } = useTranslation('calendar');
  const { t: tc } = useTranslation();
  const { t: tu } = useTranslation('ui');
  const item = draft.mode === 'edit' ? draft.item : null;
  const [userId, setUserId] = useState(item?.userId ?? (users.some((u) => u.id === me) ? me : (users[0]?.id ?? '')));
  const [date, setDate] = useState(item?.date ?? (draft.mode === 'plan' ? draft.date : ''));
  const [startTime, setStart] = useState(item?.startTime ?? formatClock(DEFAULT_START_MINUTES));
  const [endTime, setEnd] = useState(item?.endTime ?? formatClock(DEFAULT_START_MINUTES + DEFAULT_PLAN_MINUTES));
  const errors = (...keys: string[]) =>
    keys
      .flatMap((k) => fields?.[k] ?? [])
      .map((c) => tc(c))
      .join(' ');
  const title = item
    ? t('dialog.editTitle', { number: item.number })
    : t('dialog.planTitle', { number: draft.mode === 'plan' ? draft.order.number : '' });
  const orderId = item ? item.workOrderId : draft.mode === 'plan' ? draft.order.id : '';

  return (
    <Dialog
      title={title}
      isOpen
      onOpenChange={(open) => (open ? undefined : onClose())}
      footer={
        <>
          {item ? (
            <Button variant="danger" onPress={() => onRemove(item)} className="sm:mr-auto">
              {t('dialog.remove')}
            </Button>
          ) : null}
          <Button variant="secondary" onPress={onClose}>
            {tu('cancel')}
          </Button>
          <Button
            variant="primary"
            isPending={busy}
            onPress={() =>
              onSave({
                id: item?.id,
                version: item?.version,
                workOrderId: draft.mode === 'plan' ? draft.order.id : undefined,
                userId,
                date,
                startTime,
                endTime,
              })
            }
          >
            {item ? t('dialog.save') : t('dialog.plan')}
          </Button>
        </>
      }
    >
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <p className="text-sm text-slate-600 sm:col-span-2">
          {item
            ? `${item.title}${item.customerName ? ` · ${item.customerName}` : ''}`
            : draft.mode === 'plan'
              ? draft.order.title
              : ''}{' '}
          <Link to={`/work-orders/${orderId}`} className="text-blue-800 underline">
            {t('dialog.open')}
          </Link>
        </p>
        <div className="sm:col-span-2">
          <Select
            label={t('dialog.person')}
            items={users.map((u) => ({ id: u.id, label: u.name }))}
            selectedKey={userId}
            onSelectionChange={(k) => setUserId(String(k))}
            errorMessage={errors('userId') || undefined}
          />
        </div>
        <DatePicker
          label={t('dialog.date')}
          isRequired
          value={dateValueOf(date)}
          onChange={(v) => setDate(v?.toString() ?? '')}
          name="date"
          errorMessage={errors('date') || undefined}
          className="sm:col-span-2"
        />
        <label className="text-sm font-medium text-gray-900">
          {t('dialog.start')}
          <input
            type="time"
            step={900}
            value={startTime}
            onChange={(e) => setStart(e.target.value)}
            className={inputClass}
            name="startTime"
          />
          {errors('startTime') ? <span className="mt-1 block text-sm text-red-700">{errors('startTime')}</span> : null}
        </label>
        <label className="text-sm font-medium text-gray-900">
          {t('dialog.end')}
          <input
            type="time"
            step={900}
            value={endTime}
            onChange={(e) => setEnd(e.target.value)}
            className={inputClass}
            name="endTime"
          />
          {errors('endTime') ? <span className="mt-1 block text-sm text-red-700">{errors('endTime')}</span> : null}
        </label>
        <p className="text-xs text-slate-500 sm:col-span-2">{t('dialog.overnight')}</p>
      </form>
    </Dialog>
  );
}

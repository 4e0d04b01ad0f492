import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, useToast } from '~/app/components/ui';
import type { Access } from '~/core/permissions/access';
import { MODULE_ID } from './constants';
import type { loader } from './routes/work-order-door-automatics';

/** Who sees the panel on an order page (app/routes/work-orders.$id.tsx reads it). */
export const access: Access = { permission: 'workorders:read', module: MODULE_ID };

type Saved = { ok?: true; count?: number; code?: string };

/** The door automatics a work order is about: chosen among those at its object. */
export default function DoorAutomaticsOrderPanel({ workOrderId }: { workOrderId: string }) {
  const { t } = useTranslation('doorautomatics');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const list = useFetcher<Awaited<ReturnType<typeof loader>>>();
  const save = useFetcher<Saved>();
  const url = `/work-orders/${workOrderId}/doorautomatics`;
  useEffect(() => {
    void list.load(url);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [workOrderId]);
  useEffect(() => {
    const r = save.data;
    if (!r || save.state !== 'idle') return;
    if (r.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (r.code) toast.show({ kind: 'error', message: tc(r.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [save.data, save.state]);
  const d = list.data;
  // refused (null): nothing to show here
  if (d === null) return null;
  return (
    <section
      aria-labelledby="wo-door-automatics"
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h3 id="wo-door-automatics" className="text-base font-semibold">
        {t('order.title')}
      </h3>
      {!d ? (
        <p className="mt-2 text-sm text-slate-600">{t('order.loading')}</p>
      ) : !d.hasObject ? (
        <p className="mt-2 text-sm text-slate-600">{t('order.noObject')}</p>
      ) : d.options.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('order.noneAtObject')}</p>
      ) : (
        <save.Form method="post" action={url} className="mt-3 grid gap-3" key={d.linked.join()}>
          <fieldset disabled={!d.canEdit}>
            <legend className="sr-only">{t('order.title')}</legend>
            {d.options.map((o) => (
              <label key={o.id} className="flex min-h-10 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="doorAutomatics"
                  value={o.id}
                  defaultChecked={d.linked.includes(o.id)}
                  className="size-4"
                />
                <span>
                  <span className="font-medium">{o.number}</span> {o.title}
                  {o.location ? <span className="text-slate-600"> · {o.location}</span> : null}
                </span>
              </label>
            ))}
          </fieldset>
          {d.canEdit ? (
            <div>
              <Button type="submit" size="sm" variant="secondary" isPending={save.state !== 'idle'}>
                {t('order.save')}
              </Button>
            </div>
          ) : null}
        </save.Form>
      )}
    </section>
  );
}

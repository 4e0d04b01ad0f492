import { useTranslation } from 'react-i18next';
import { redirect } from 'react-router';
import type { Route } from './+types/home';
import { tenantContext } from '~/app/context';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { formatDate } from '~/app/components/ui/number-format';
import { isoWeek } from '~/app/components/ui/iso-week';
import { SIGNED_IN } from '~/core/permissions/access';

/** The start page. The work-order screen takes this place when work orders land. */
export const middleware = guard(SIGNED_IN);

export function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  // Spec section 2: a scanned QR label opens /?source=qr&id=<ref>, which is the object's QR page.
  const query = new URL(request.url).searchParams;
  const qr = query.get('id');
  if (query.get('source') === 'qr' && qr) throw redirect(`/qr/${encodeURIComponent(qr)}`);
  const tenant = context.get(tenantContext);
  const now = new Date();
  const today = { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  return {
    name: auth.user.fullName,
    company: tenant.displayName,
    date: formatDate(now, tenant.config.dateFormat),
    week: isoWeek(today).week,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-semibold">{t('home.title', { name: loaderData.name })}</h1>
      <p className="mt-2 max-w-prose text-slate-600">{t('home.body', { company: loaderData.company })}</p>
      <p className="mt-4 text-sm text-slate-500">{t('home.today', { date: loaderData.date, week: loaderData.week })}</p>
    </section>
  );
}

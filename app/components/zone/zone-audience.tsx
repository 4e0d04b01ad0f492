import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileCall } from '~/app/components/files/files-api';

interface Audience {
  customer: { id: string; name: string } | null;
  users: { name: string; email: string; status: 'STATUS_ACTIVE' | 'STATUS_REGISTERED' }[];
}

/**
 * "Who will see it" in the publish dialog (issue 35 item 4, decision 063): the zone users of the
 * customer a file would be published to, by name and e-mail (an invited one marked so), or that
 * the customer has none yet. A drive file names its customer once one is picked.
 */
export function ZoneAudience({ fileId, customerId, isDrive }: { fileId: string; customerId?: string | null; isDrive: boolean }) {
  const { t } = useTranslation('zoneactions');
  const [audience, setAudience] = useState<Audience | null>(null);
  const [failed, setFailed] = useState(false);
  const waiting = isDrive && !customerId;

  useEffect(() => {
    if (waiting) return;
    let live = true;
    const query = customerId ? `?customerId=${encodeURIComponent(customerId)}` : '';
    setAudience(null);
    setFailed(false);
    fileCall<Audience>('GET', `/api/file/drive/${fileId}/audience${query}`)
      .then((a) => live && setAudience(a))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [fileId, customerId, waiting]);

  let body: React.ReactNode;
  if (waiting) body = <p>{t('audience.pickCustomer')}</p>;
  else if (failed) body = <p>{t('audience.failed')}</p>;
  else if (!audience) body = <p>{t('audience.loading')}</p>;
  else if (!audience.customer) body = <p>{t('audience.noCustomer')}</p>;
  else if (!audience.users.length) body = <p>{t('audience.none', { customer: audience.customer.name })}</p>;
  else
    body = (
      <>
        <p>{t('audience.intro', { customer: audience.customer.name })}</p>
        <ul className="mt-1 list-disc ps-5">
          {audience.users.map((u) => (
            <li key={u.email} className="break-words">
              {u.status === 'STATUS_REGISTERED'
                ? t('audience.invited', { name: u.name, email: u.email })
                : t('audience.user', { name: u.name, email: u.email })}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <div role="status" aria-live="polite" data-testid="zone-audience" className="rounded-md bg-slate-50 p-3 text-sm text-slate-800">
      <p className="font-medium">{t('audience.title')}</p>
      {body}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import type { ZoneProposalStatus } from '~/core/zone/zone-proposal.service';

const TONE: Record<ZoneProposalStatus, string> = {
  open: 'bg-blue-100 text-blue-900',
  expired: 'bg-slate-200 text-slate-800',
  accepted: 'bg-green-100 text-green-900',
  declined: 'bg-red-100 text-red-900',
};

/** A proposal's state as the customer reads it: open to answer, expired, accepted or declined. */
export function ZoneProposalStatusBadge({ status }: { status: ZoneProposalStatus }) {
  const { t } = useTranslation('zoneactions');
  const label: Record<ZoneProposalStatus, string> = {
    open: t('status.open'),
    expired: t('status.expired'),
    accepted: t('status.accepted'),
    declined: t('status.declined'),
  };
  return <span className={`rounded px-1.5 py-0.5 text-sm ${TONE[status]}`}>{label[status]}</span>;
}

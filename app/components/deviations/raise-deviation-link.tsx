import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '~/app/lib/can';
import type { RelationKind } from '~/core/deviations/deviation.schema';

/**
 * The one tap that raises a deviation about a record (issue 34): the record and what hangs on it
 * come along through `?from=`. Shown only to whoever may create deviations.
 */
export function RaiseDeviationLink({ kind, id, label }: { kind: RelationKind; id: string; label?: string }) {
  const { t } = useTranslation('deviations');
  if (!useCan()('deviations:create', 'deviations')) return null;
  return (
    <Link
      to={`/deviations/new?from=${kind}&id=${encodeURIComponent(id)}`}
      aria-label={label ? t('raiseFor', { label }) : undefined}
      className="inline-flex min-h-11 items-center text-sm text-brand-700 underline"
    >
      {t('raise')}
    </Link>
  );
}

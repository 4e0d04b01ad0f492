import { useTranslation } from 'react-i18next';
import { LabelledSwitch } from '~/app/components/ui/labelled-switch';
import { useSectionFetcher } from './customer-pricing';

/**
 * The office's leave for this customer's zone users to keep the company's contact details and its
 * zone users themselves (decision 064), on the customer page's zone users panel.
 */
export function ZoneSelfService({ selfService }: { selfService: boolean }) {
  const { t } = useTranslation('zonerequests');
  const fetcher = useSectionFetcher();
  const pending = fetcher.formData?.get('selfService');
  const on = typeof pending === 'string' ? pending === 'true' : selfService;
  return (
    <LabelledSwitch
      label={t('office.selfService')}
      stateLabel={on ? t('office.on') : t('office.off')}
      description={t('office.selfServiceHelp')}
      isSelected={on}
      isPending={fetcher.state !== 'idle'}
      onChange={(value) =>
        void fetcher.submit({ intent: 'zone.selfService', selfService: String(value) }, { method: 'post' })
      }
    />
  );
}

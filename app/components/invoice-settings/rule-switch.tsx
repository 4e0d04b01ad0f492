import { useTranslation } from 'react-i18next';
import { LabelledSwitch, type LabelledSwitchProps } from '~/app/components/ui/labelled-switch';

export type RuleSwitchProps = Omit<LabelledSwitchProps, 'stateLabel' | 'isPending' | 'className'>;

/** One invoice rule as a labelled switch, "På"/"Av" beside the track, its help text below. */
export function RuleSwitch(props: RuleSwitchProps) {
  const { t } = useTranslation('invoicesettings');
  return <LabelledSwitch {...props} stateLabel={props.isSelected ? t('on') : t('off')} />;
}

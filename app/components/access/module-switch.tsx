import { LabelledSwitch, type LabelledSwitchProps } from '~/app/components/ui/labelled-switch';

export type ModuleSwitchProps = Omit<LabelledSwitchProps, 'description' | 'className'>;

/** One app module as a labelled on/off switch in Settings → Modules' list. */
export function ModuleSwitch(props: ModuleSwitchProps) {
  return <LabelledSwitch {...props} className="px-3 py-2" />;
}

import { Switch } from 'react-aria-components';
import { cx, TOUCH_HEIGHT } from '~/app/components/ui/class-names';

export interface ModuleSwitchProps {
  /** The module's name, already translated: the switch's label. */
  label: string;
  /** "On" / "Off", already translated, shown next to the track for those who do not read colour. */
  stateLabel: string;
  isSelected: boolean;
  onChange: (on: boolean) => void;
  isDisabled?: boolean;
  isPending?: boolean;
}

/** One app module as a labelled on/off switch (react-aria Switch: Space toggles it). */
export function ModuleSwitch({ label, stateLabel, isSelected, onChange, isDisabled, isPending }: ModuleSwitchProps) {
  return (
    <Switch
      isSelected={isSelected}
      onChange={onChange}
      isDisabled={isDisabled}
      aria-busy={isPending || undefined}
      className={cx(
        'group flex w-full cursor-default items-center justify-between gap-3 px-3 py-2 text-sm text-gray-900',
        TOUCH_HEIGHT.md,
        'data-disabled:cursor-not-allowed',
      )}
    >
      <span className="min-w-0 font-medium">{label}</span>
      <span className="flex shrink-0 items-center gap-2">
        <span aria-hidden="true" className="w-14 text-end text-xs text-gray-600">
          {stateLabel}
        </span>
        <span
          aria-hidden="true"
          className={cx(
            'flex h-6 w-11 items-center rounded-full p-0.5 transition-colors',
            isSelected ? 'bg-blue-700' : 'bg-gray-300',
            'group-data-focus-visible:outline-2 group-data-focus-visible:outline-offset-2 group-data-focus-visible:outline-blue-600',
            'group-data-disabled:opacity-60',
            isPending && 'opacity-70',
          )}
        >
          <span
            className={cx(
              'size-5 rounded-full bg-white shadow transition-transform',
              isSelected ? 'translate-x-5 rtl:-translate-x-5' : 'translate-x-0',
            )}
          />
        </span>
      </span>
    </Switch>
  );
}

import { useId } from 'react';
import { Switch } from 'react-aria-components';
import { cx, TOUCH_HEIGHT } from './class-names';

export interface LabelledSwitchProps {
  /** Visible label, already translated: the switch's name. */
  label: string;
  /** "On" / "Off", already translated, written beside the track for those who do not read colour. */
  stateLabel: string;
  /** What the switch does, already translated; shown below it and read with it by screen readers. */
  description?: string;
  isSelected: boolean;
  onChange: (on: boolean) => void;
  isDisabled?: boolean;
  /** A save of this switch is on its way. */
  isPending?: boolean;
  /** Padding of the row (a list of switches pads each; a form does not). */
  className?: string;
}

/**
 * One on/off setting as a labelled switch (react-aria Switch: Tab reaches it, Space toggles it), the
 * state written beside the track, an optional help text below. Settings → Modules and Settings →
 * Invoicing both draw their switches with it.
 */
export function LabelledSwitch({
  label,
  stateLabel,
  description,
  isSelected,
  onChange,
  isDisabled,
  isPending,
  className,
}: LabelledSwitchProps) {
  const helpId = useId();
  const control = (
    <Switch
      isSelected={isSelected}
      onChange={onChange}
      isDisabled={isDisabled}
      aria-busy={isPending || undefined}
      aria-describedby={description ? helpId : undefined}
      className={cx(
        'group flex w-full cursor-default items-center justify-between gap-3 text-sm text-gray-900',
        TOUCH_HEIGHT.md,
        'data-disabled:cursor-not-allowed',
        className,
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
  if (!description) return control;
  return (
    <div className="grid gap-1">
      {control}
      <p id={helpId} className="text-sm text-slate-600">
        {description}
      </p>
    </div>
  );
}

import { useId } from 'react';
import { Switch } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { cx, TOUCH_HEIGHT } from '~/app/components/ui/class-names';

export interface RuleSwitchProps {
  /** Visible label, already translated. */
  label: string;
  /** What the switch does, already translated; read with it by screen readers. */
  description?: string;
  isSelected: boolean;
  onChange: (on: boolean) => void;
  isDisabled?: boolean;
}

/**
 * One on/off setting as a labelled switch (react-aria Switch: Tab reaches it, Space toggles it),
 * "On"/"Off" written beside the track for those who do not read colour, its help text below.
 */
export function RuleSwitch({ label, description, isSelected, onChange, isDisabled }: RuleSwitchProps) {
  const { t } = useTranslation('invoicesettings');
  const helpId = useId();
  return (
    <div className="grid gap-1">
      <Switch
        isSelected={isSelected}
        onChange={onChange}
        isDisabled={isDisabled}
        aria-describedby={description ? helpId : undefined}
        className={cx(
          'group flex w-full cursor-default items-center justify-between gap-3 text-sm text-gray-900',
          TOUCH_HEIGHT.md,
          'data-disabled:cursor-not-allowed',
        )}
      >
        <span className="min-w-0 font-medium">{label}</span>
        <span className="flex shrink-0 items-center gap-2">
          <span aria-hidden="true" className="w-10 text-end text-xs text-gray-600">
            {isSelected ? t('on') : t('off')}
          </span>
          <span
            aria-hidden="true"
            className={cx(
              'flex h-6 w-11 items-center rounded-full p-0.5 transition-colors',
              isSelected ? 'bg-blue-700' : 'bg-gray-300',
              'group-data-focus-visible:outline-2 group-data-focus-visible:outline-offset-2 group-data-focus-visible:outline-blue-600',
              'group-data-disabled:opacity-60',
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
      {description ? (
        <p id={helpId} className="text-sm text-slate-600">
          {description}
        </p>
      ) : null}
    </div>
  );
}

import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cx, TOUCH_HEIGHT } from '~/app/components/ui/class-names';
import { NATIVE_INPUT_CLASS } from '~/app/components/ui/native-field';
import { useCurrency } from '~/app/lib/use-currency';

type Mode = 'percent' | 'amount';

/** The unit switch: the input box's look, joined to the number's right edge, as wide as its text. */
const SWITCH_CLASS = cx(
  'shrink-0 rounded-e-md border border-s-0 border-gray-300 bg-gray-50 px-1.5 text-base text-gray-900 shadow-xs sm:text-sm',
  TOUCH_HEIGHT.md,
  'outline-none focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/30',
  'disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-500',
);

/** "10%" → ["10", percent]; "150" → ["150", amount]; "" → ["", null]. */
function split(value: string): { number: string; mode: Mode | null } {
  const m = /^(.*?)\s*%\s*$/.exec(value);
  if (m) return { number: m[1]!.replace('.', ','), mode: 'percent' };
  const number = value.trim().replace('.', ',');
  return { number, mode: number ? 'amount' : null };
}

const join = (number: string, mode: Mode) => (number.trim() === '' ? '' : mode === 'percent' ? `${number}%` : number);

export interface DiscountFieldProps {
  /** The field's label, already translated ("Rabatt"). */
  label: string;
  /** The discount as the pricing rules read it (`parseDiscount`): "10%", "150", "" for none. */
  value: string;
  onChange: (value: string) => void;
  /** The row's unit ("st"): the amount choice reads "kr/st". */
  unit?: string | null;
  error?: string;
  disabled?: boolean;
  /** Posts the value (as `value` reads) under this name in a native form. */
  name?: string;
  /** Classes of the label text, e.g. `sm:sr-only` where a column heading shows it. */
  labelClassName?: string;
  className?: string;
}

/**
 * A discount with its unit in view (issue 28 item 8): a number and a "%" / "kr/st" switch beside
 * it, so "10" is never read one way and meant the other. It speaks the pricing rules' text form
 * ("10%" percent, "10" an amount off each unit), and typing "%" in the number flips the switch.
 * With the field empty the switch keeps the unit chosen for the next number.
 */
export function DiscountField({
  label,
  value,
  onChange,
  unit,
  error,
  disabled,
  name,
  labelClassName,
  className,
}: DiscountFieldProps) {
  const { t } = useTranslation('common');
  const currency = useCurrency();
  const id = useId();
  const { number, mode: typedMode } = split(value);
  const [emptyMode, setEmptyMode] = useState<Mode>('percent');
  const mode = typedMode ?? emptyMode;
  const amountLabel = unit?.trim() ? `${currency}/${unit.trim()}` : currency;
  return (
    <div className={cx('flex min-w-0 flex-col gap-0.5', className)}>
      <label htmlFor={id} className={labelClassName ?? 'text-sm text-gray-700'}>
        {label}
      </label>
      <div className="flex min-w-0">
        <input
          id={id}
          inputMode="decimal"
          value={number}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            const typed = e.target.value;
            const next: Mode = typed.includes('%') ? 'percent' : mode;
            const digits = typed.replace(/%/g, '');
            setEmptyMode(next);
            onChange(join(digits, next));
          }}
          className={cx(NATIVE_INPUT_CLASS, 'min-w-0 flex-1 rounded-e-none px-2 text-end', error && 'border-red-600')}
        />
        <select
          aria-label={t('discount.unit', { label })}
          value={mode}
          disabled={disabled}
          onChange={(e) => {
            const next = e.target.value as Mode;
            setEmptyMode(next);
            onChange(join(number, next));
          }}
          className={SWITCH_CLASS}
        >
          <option value="percent">{t('discount.percentSign')}</option>
          <option value="amount">{amountLabel}</option>
        </select>
      </div>
      {name ? <input type="hidden" name={name} value={value} /> : null}
      {error ? (
        <span id={`${id}-error`} className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </div>
  );
}

import { cx } from './class-names';
import { NATIVE_INPUT_CLASS, NativeField } from './native-field';

export interface NativeSelectProps {
  /** Visible label, already translated. */
  label: string;
  items: readonly { id: string; label: string }[];
  value: string;
  onChange: (id: string) => void;
  name?: string;
  isDisabled?: boolean;
  /** Layout only. */
  className?: string;
}

/**
 * The browser's own `<select>`, for a short fixed list on a page that must load fast (the
 * work-order list's sort order): no script to load, the phone's native picker. Looks like Select.
 */
export function NativeSelect({ label, items, value, onChange, name, isDisabled, className }: NativeSelectProps) {
  return (
    <NativeField label={label} className={className}>
      {(id) => (
        <select
          id={id}
          name={name}
          value={value}
          disabled={isDisabled}
          onChange={(e) => onChange(e.target.value)}
          className={cx(NATIVE_INPUT_CLASS, 'cursor-default')}
        >
          {items.map((item) => (
            <option key={item.id} value={item.id}>
              {item.label}
            </option>
          ))}
        </select>
      )}
    </NativeField>
  );
}

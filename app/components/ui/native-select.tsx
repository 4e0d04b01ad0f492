import { useId } from 'react';
import { cx } from './class-names';
import { FIELD_CLASS, INPUT_BOX_CLASS } from './field-classes';

export interface NativeSelectProps {
  /** Visible label, already translated. */
  label: string;
  items: readonly { id: string; label: string }[];
  value: string;
  onChange: (id: string) => void;
  name?: string;
  /** Layout only. */
  className?: string;
}

/**
 * The browser's own `<select>`, for a short fixed list on a page that must load fast (the
 * work-order list's sort order): no script to load, the phone's native picker. Looks like Select.
 */
export function NativeSelect({ label, items, value, onChange, name, className }: NativeSelectProps) {
  const id = useId();
  return (
    <div className={cx(FIELD_CLASS, className)}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={cx(
          INPUT_BOX_CLASS,
          'cursor-default px-3 outline-none focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/30',
        )}
      >
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.label}
          </option>
        ))}
      </select>
    </div>
  );
}

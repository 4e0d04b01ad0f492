import { useId } from 'react';
import { cx } from './class-names';
import { FIELD_CLASS, INPUT_BOX_CLASS } from './field-classes';

export interface SearchInputProps {
  /** Visible label, already translated; the field's accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  name?: string;
  /** Layout only. */
  className?: string;
}

/**
 * The browser's own search box (`<input type="search">`: Escape clears it, phones show a search
 * key), for a list's filter on a page that must load fast. Looks like TextField.
 */
export function SearchInput({ label, value, onChange, placeholder, name, className }: SearchInputProps) {
  const id = useId();
  return (
    <div className={cx(FIELD_CLASS, className)}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name={name}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        className={cx(
          INPUT_BOX_CLASS,
          'px-3 outline-none placeholder:text-gray-500 focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/30',
        )}
      />
    </div>
  );
}

import { cx } from './class-names';
import { NATIVE_INPUT_CLASS, NativeField } from './native-field';

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
  return (
    <NativeField label={label} className={className}>
      {(id) => (
        <input
          id={id}
          type="search"
          name={name}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
          className={cx(NATIVE_INPUT_CLASS, 'placeholder:text-gray-500')}
        />
      )}
    </NativeField>
  );
}

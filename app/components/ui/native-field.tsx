import { useId, type ReactNode } from 'react';
import { cx } from './class-names';
import { FIELD_CLASS, INPUT_BOX_CLASS } from './field-classes';

/** The box classes of a native input, with a focus ring like the kit's fields. */
export const NATIVE_INPUT_CLASS = cx(
  INPUT_BOX_CLASS,
  'px-3 outline-none focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/30',
);

/**
 * A label above one of the browser's own inputs (./native-select.tsx, ./search-input.tsx), laid out
 * like the kit's fields; `children` gets the id that ties the two.
 */
export function NativeField({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={cx(FIELD_CLASS, className)}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

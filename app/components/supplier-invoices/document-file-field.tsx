import { useId, type ChangeEvent } from 'react';

/**
 * The browser's own file input with its label and error, for a document sent with a form (an
 * e-invoice's XML, a typed invoice's PDF): the phone's file picker, no script needed to choose.
 */
export function DocumentFileField({
  label,
  name,
  accept,
  error,
  onChange,
}: {
  label: string;
  name: string;
  accept: string;
  /** Already translated. */
  error?: string;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        required
        accept={accept}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={onChange}
        className="max-w-full text-sm file:me-2 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2"
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

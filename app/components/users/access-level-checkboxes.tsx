/**
 * A group of access levels to tick, posted as repeated `name` values (a user's levels, the levels
 * the MFA rule covers). Native checkboxes: they post without JavaScript.
 */
export function AccessLevelCheckboxes({
  legend,
  name,
  levels,
  checked = [],
  isDisabled,
  errorMessage,
  className,
}: {
  legend: string;
  name: string;
  levels: readonly { id: string; displayName: string }[];
  checked?: readonly string[];
  isDisabled?: boolean;
  errorMessage?: string[];
  className?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="text-sm font-medium text-gray-900">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
        {levels.map((level) => (
          <label key={level.id} className="flex min-h-10 items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={level.id}
              defaultChecked={checked.includes(level.id)}
              disabled={isDisabled}
              className="size-4 accent-brand-600"
            />
            {level.displayName}
          </label>
        ))}
      </div>
      {errorMessage?.length ? <p className="mt-1 text-sm text-red-700">{errorMessage.join(' ')}</p> : null}
    </fieldset>
  );
}

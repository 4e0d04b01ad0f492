import { useId, type ReactNode } from 'react';
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';
import { cx, TOUCH_HEIGHT } from '~/app/components/ui/class-names';

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'children' | 'className' | 'render' | 'style'> {
  /** The label, already translated; it alone names the checkbox. */
  children: ReactNode;
  /** A line under the label, already translated; announced as the checkbox's description. */
  description?: string;
  /** Layout only. */
  className?: string;
}

/**
 * A labelled checkbox (react-aria): posts `value` under `name` from a plain form when ticked, and
 * shows a dash when `isIndeterminate` (a "select all" with some selected).
 */
export function Checkbox({ children, description, className, ...props }: CheckboxProps) {
  const descriptionId = useId();
  return (
    <div className={cx('flex flex-col', className)}>
      <AriaCheckbox
        {...props}
        aria-describedby={description ? descriptionId : undefined}
        className={cx(
          'group flex cursor-default items-center gap-3 text-sm text-gray-900',
          TOUCH_HEIGHT.sm,
          'data-disabled:cursor-not-allowed data-disabled:text-gray-500',
        )}
      >
        {({ isSelected, isIndeterminate }) => (
          <>
            <span
              aria-hidden="true"
              className={cx(
                'flex size-5 shrink-0 items-center justify-center rounded border-2 transition-colors',
                isSelected || isIndeterminate ? 'border-blue-700 bg-blue-700 text-white' : 'border-gray-400 bg-white',
                'group-data-focus-visible:outline-2 group-data-focus-visible:outline-offset-2 group-data-focus-visible:outline-blue-600',
                'group-data-disabled:opacity-50',
              )}
            >
              {isIndeterminate ? (
                <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="3">
                  <path d="M3 8h10" />
                </svg>
              ) : isSelected ? (
                <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="3">
                  <path d="M3 8.5l3.5 3.5L13 4.5" />
                </svg>
              ) : null}
            </span>
            <span className="min-w-0 font-medium">{children}</span>
          </>
        )}
      </AriaCheckbox>
      {description ? (
        <p id={descriptionId} className="ms-8 -mt-1 text-sm text-gray-600">
          {description}
        </p>
      ) : null}
    </div>
  );
}

import type { ReactNode, Ref } from 'react';
import {
  Button as AriaButton,
  Link as AriaLink,
  type ButtonProps as AriaButtonProps,
  type LinkProps as AriaLinkProps,
} from 'react-aria-components';
import { cx, FOCUS_RING, TOUCH_HEIGHT, TOUCH_SQUARE } from './class-names';
import { Spinner } from './spinner';

/** `inverse`: on a dark background (the navy top bar). */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'inverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

const VARIANT_CLASS: Record<ButtonVariant, string> = {
  primary: 'bg-blue-700 text-white data-hovered:bg-blue-800 data-pressed:bg-blue-900',
  secondary: 'border border-gray-300 bg-white text-gray-900 shadow-xs data-hovered:bg-gray-50 data-pressed:bg-gray-100',
  danger: 'bg-red-700 text-white data-hovered:bg-red-800 data-pressed:bg-red-900',
  ghost: 'bg-transparent text-gray-800 data-hovered:bg-gray-100 data-pressed:bg-gray-200',
  inverse:
    'bg-transparent text-white ring-1 ring-white/40 data-hovered:bg-white/15 data-pressed:bg-white/25 data-focus-visible:outline-white',
};

const SIZE_CLASS: Record<ButtonSize, string> = {
  sm: cx(TOUCH_HEIGHT.sm, 'px-3 text-sm'),
  md: cx(TOUCH_HEIGHT.md, 'px-4 text-sm'),
  lg: cx(TOUCH_HEIGHT.lg, 'px-5 text-base'),
};

const ICON_SIZE_CLASS: Record<ButtonSize, string> = {
  sm: TOUCH_SQUARE.sm,
  md: TOUCH_SQUARE.md,
  lg: TOUCH_SQUARE.lg,
};

/** Classes of a button, for the rare element that must look like one without being one. */
export function buttonClass({
  variant = 'primary',
  size = 'md',
  isIconOnly = false,
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  isIconOnly?: boolean;
  className?: string;
} = {}): string {
  return cx(
    'inline-flex shrink-0 cursor-default items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap select-none transition-colors',
    FOCUS_RING,
    VARIANT_CLASS[variant],
    // Square icon buttons keep the touch height as their width too.
    isIconOnly ? ICON_SIZE_CLASS[size] : SIZE_CLASS[size],
    'data-disabled:cursor-not-allowed data-disabled:opacity-50 data-pending:cursor-wait',
    className,
  );
}

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children' | 'render' | 'style'> {
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A square button holding only an icon; give it an `aria-label`. */
  isIconOnly?: boolean;
  /** Layout only (margins, width); the look comes from `variant` and `size`. */
  className?: string;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A button. `isPending` (a submission under way) shows a spinner, sets `aria-busy`, keeps focus and
 * ignores presses; a pending submit button does not submit the form again.
 */
export function Button({ children, variant, size, isIconOnly, className, isPending, ...props }: ButtonProps) {
  return (
    <AriaButton
      {...props}
      isPending={isPending}
      className={buttonClass({ variant, size, isIconOnly, className })}
      render={(domProps) => <button {...domProps} aria-busy={isPending || undefined} />}
    >
      {isPending && <Spinner />}
      {children}
    </AriaButton>
  );
}

export interface LinkButtonProps extends Omit<AriaLinkProps, 'className' | 'children' | 'render' | 'style'> {
  children: ReactNode;
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  isIconOnly?: boolean;
  className?: string;
}

/**
 * A link that looks like a button: for navigation ("New work order" → /work-orders/new), never for
 * actions. Client-side routing comes from the app's react-aria-components `RouterProvider`.
 */
export function LinkButton({
  children,
  variant = 'secondary',
  size,
  isIconOnly,
  className,
  ...props
}: LinkButtonProps) {
  return (
    <AriaLink
      {...props}
      className={buttonClass({ variant, size, isIconOnly, className: cx('no-underline', className) })}
    >
      {children}
    </AriaLink>
  );
}

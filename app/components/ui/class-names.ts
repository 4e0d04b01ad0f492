/** Joins class names, skipping falsy ones: `cx('a', isOn && 'b')`. */
export function cx(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}

/**
 * Minimum heights shared by everything you tap: at least 44 px on narrow screens and touch
 * devices, 36 px (32 px small) on wider screens with a mouse.
 */
export const TOUCH_HEIGHT = {
  sm: 'min-h-10 sm:pointer-fine:min-h-8',
  md: 'min-h-11 sm:pointer-fine:min-h-9',
  lg: 'min-h-12 sm:pointer-fine:min-h-11',
} as const;

/** Square icon-only controls: the same touch sizes as TOUCH_HEIGHT, in both directions. */
export const TOUCH_SQUARE = {
  sm: 'size-10 sm:pointer-fine:size-8',
  md: 'size-11 sm:pointer-fine:size-9',
  lg: 'size-12 sm:pointer-fine:size-11',
} as const;

/** Keyboard focus ring for React Aria components, which set `data-focus-visible`. */
export const FOCUS_RING =
  'outline-none data-focus-visible:outline-2 data-focus-visible:outline-offset-2 data-focus-visible:outline-blue-600';

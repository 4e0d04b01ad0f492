import { cx, FOCUS_RING, TOUCH_HEIGHT } from './class-names';

/**
 * The fields' classes, apart from their components (./field.tsx) so that the native inputs
 * (./native-select.tsx, ./search-input.tsx) look the same without loading React Aria.
 */

/** Root of a field; the named group lets the parts react to the root's `data-invalid` / `data-disabled`. */
export const FIELD_CLASS = 'group/field flex min-w-0 flex-col gap-1';

/** The box around a text input or a trigger; reacts to React Aria's data attributes. */
export const INPUT_BOX_CLASS = cx(
  'w-full min-w-0 rounded-md border border-gray-300 bg-white text-gray-900 shadow-xs',
  // 16 px text on phones stops iOS from zooming into the field.
  'text-base sm:text-sm',
  TOUCH_HEIGHT.md,
  'group-data-invalid/field:border-red-600',
  'group-data-disabled/field:cursor-not-allowed group-data-disabled/field:bg-gray-100 group-data-disabled/field:text-gray-500',
);

export const INPUT_FOCUS_CLASS =
  'outline-none data-focused:border-blue-600 data-focused:ring-2 data-focused:ring-blue-600/30';

/** A button inside an input box (open list, open calendar): full box height, touch-size width. */
export const INNER_BUTTON_CLASS = cx(
  FOCUS_RING,
  'data-focus-visible:-outline-offset-2',
  'flex w-11 shrink-0 items-center justify-center self-stretch text-gray-600 sm:pointer-fine:w-9',
  'data-hovered:bg-gray-50 data-pressed:bg-gray-100',
);

export const POPOVER_CLASS =
  'min-w-(--trigger-width) max-w-[calc(100vw-1rem)] overflow-hidden rounded-md border border-gray-200 bg-white shadow-lg outline-none';

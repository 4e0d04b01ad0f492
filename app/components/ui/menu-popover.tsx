import type { RefObject } from 'react';
import { Menu as AriaMenu, MenuItem, Popover, type Placement } from 'react-aria-components';
import { cx, TOUCH_HEIGHT } from './class-names';
import type { MenuItemDef } from './menu';

export interface MenuPopoverProps {
  id: string;
  /** The trigger's name, for the menu's own accessible name. */
  label: string;
  items: readonly MenuItemDef[];
  placement: Placement;
  triggerRef: RefObject<HTMLButtonElement | null>;
  autoFocus: 'first' | 'last';
  onClose: () => void;
}

/** The open part of ./menu.tsx, loaded when a menu is about to open. */
export default function MenuPopover({ id, label, items, placement, triggerRef, autoFocus, onClose }: MenuPopoverProps) {
  return (
    <Popover
      isOpen
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
      triggerRef={triggerRef}
      placement={placement}
      className="min-w-48 max-w-[calc(100vw-1rem)] overflow-auto rounded-md border border-gray-200 bg-white py-1 shadow-lg outline-none"
    >
      <AriaMenu
        id={id}
        aria-label={label}
        autoFocus={autoFocus}
        items={items}
        disabledKeys={items.filter((item) => item.isDisabled).map((item) => item.id)}
        onAction={(key) => items.find((item) => item.id === key)?.onAction?.()}
        onClose={onClose}
        className="outline-none"
      >
        {(item) => (
          <MenuItem
            id={item.id}
            href={item.href}
            textValue={item.label}
            className={cx(
              'flex cursor-default items-center px-3 py-2 text-base no-underline outline-none select-none sm:text-sm',
              TOUCH_HEIGHT.md,
              item.isDanger ? 'text-red-700' : 'text-gray-900',
              'data-focused:bg-blue-50 data-disabled:cursor-not-allowed data-disabled:text-gray-400',
            )}
          >
            {item.label}
            {item.suffix}
          </MenuItem>
        )}
      </AriaMenu>
    </Popover>
  );
}

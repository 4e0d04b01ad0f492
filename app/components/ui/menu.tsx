import { Menu as AriaMenu, MenuItem, MenuTrigger, Popover, type Key, type Placement } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonVariant } from './button';
import { cx, TOUCH_HEIGHT } from './class-names';
import { ChevronDownIcon, MoreIcon } from './icons';

export interface MenuItemDef {
  id: Key;
  /** Already translated. */
  label: string;
  /** Renders the item as a link (`<a href>`), e.g. to another screen or a PDF. */
  href?: string;
  onAction?: () => void;
  isDisabled?: boolean;
  /** Red text for destructive actions (delete). */
  isDanger?: boolean;
}

export interface MenuProps {
  items: readonly MenuItemDef[];
  /** Trigger text, already translated; "Actions" unless told. Also its accessible name. */
  label?: string;
  /** Shows a "⋯" button instead of the label (the label stays as its accessible name). */
  isIconOnly?: boolean;
  triggerVariant?: ButtonVariant;
  placement?: Placement;
  isDisabled?: boolean;
}

/** A button that opens a list of actions and links; arrow keys move, typing jumps, Escape closes. */
export function Menu({
  items,
  label,
  isIconOnly = false,
  triggerVariant = 'secondary',
  placement = 'bottom end',
  isDisabled,
}: MenuProps) {
  const { t } = useTranslation('ui');
  const name = label ?? t('actions');
  return (
    <MenuTrigger>
      <Button
        variant={isIconOnly ? 'ghost' : triggerVariant}
        isIconOnly={isIconOnly}
        isDisabled={isDisabled}
        aria-label={isIconOnly ? name : undefined}
      >
        {isIconOnly ? (
          <MoreIcon />
        ) : (
          <>
            {name}
            <ChevronDownIcon />
          </>
        )}
      </Button>
      <Popover
        placement={placement}
        className="min-w-48 max-w-[calc(100vw-1rem)] overflow-auto rounded-md border border-gray-200 bg-white py-1 shadow-lg outline-none"
      >
        <AriaMenu
          items={items}
          disabledKeys={items.filter((item) => item.isDisabled).map((item) => item.id)}
          onAction={(key) => items.find((item) => item.id === key)?.onAction?.()}
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
            </MenuItem>
          )}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}

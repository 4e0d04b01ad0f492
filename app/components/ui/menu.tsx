import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import type { Key, Placement } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonVariant } from './button';
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
  /** Shown after the label, e.g. a count badge (its text joins the item's accessible name). */
  suffix?: ReactNode;
}

export interface MenuProps {
  items: readonly MenuItemDef[];
  /** Trigger text, already translated; "Actions" unless told. Also its accessible name. */
  label?: string;
  /** Shows a "⋯" button instead of the label (the label stays as its accessible name). */
  isIconOnly?: boolean;
  /** Trigger text on a phone (initials for a name), where the label stays the accessible name. */
  shortLabel?: string;
  /** Up to which width the short label shows: a phone (`sm`, the default) or below 1,280 px (`xl`). */
  shortLabelUntil?: 'sm' | 'xl';
  triggerVariant?: ButtonVariant;
  placement?: Placement;
  isDisabled?: boolean;
  /** Shown after the trigger's text, e.g. the sum of its items' count badges. */
  triggerSuffix?: ReactNode;
}

/**
 * The open menu (react-aria's Menu in a Popover) is its own chunk, fetched when the pointer or the
 * focus reaches a trigger, or at the latest when it opens: a page's first load does not carry it.
 */
const loadPopover = () => import('./menu-popover');
const MenuPopover = lazy(loadPopover);
let popoverRequested = false;
function preloadPopover() {
  if (popoverRequested) return;
  popoverRequested = true;
  void loadPopover();
}

/**
 * A button that opens a list of actions and links; arrow keys move, typing jumps, Escape closes.
 * Enter, Space and ArrowDown open it on its first item, ArrowUp on its last; closing returns focus
 * to the button.
 */
export function Menu({
  items,
  label,
  isIconOnly = false,
  shortLabel,
  shortLabelUntil = 'sm',
  triggerVariant = 'secondary',
  placement = 'bottom end',
  isDisabled,
  triggerSuffix,
}: MenuProps) {
  const { t } = useTranslation('ui');
  const name = label ?? t('actions');
  const trigger = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  return (
    <>
      <Button
        ref={trigger}
        variant={isIconOnly ? 'ghost' : triggerVariant}
        isIconOnly={isIconOnly}
        isDisabled={isDisabled}
        aria-label={isIconOnly ? name : undefined}
        aria-haspopup="menu"
        aria-expanded={open ? true : false}
        aria-controls={open ? menuId : undefined}
        onHoverStart={preloadPopover}
        onFocus={preloadPopover}
        onPress={() => setOpen((was) => (was ? false : 'first'))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
          else e.continuePropagation();
        }}
      >
        {isIconOnly ? (
          <MoreIcon />
        ) : (
          <>
            {shortLabel ? (
              <>
                <span aria-hidden="true" className={shortLabelUntil === 'xl' ? 'xl:hidden' : 'sm:hidden'}>
                  {shortLabel}
                </span>
                <span className={shortLabelUntil === 'xl' ? 'max-xl:sr-only' : 'max-sm:sr-only'}>{name}</span>
              </>
            ) : (
              name
            )}
            {triggerSuffix}
            <ChevronDownIcon />
          </>
        )}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <MenuPopover
            id={menuId}
            label={name}
            items={items}
            placement={placement}
            triggerRef={trigger}
            autoFocus={open}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

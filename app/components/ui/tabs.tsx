import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, TabPanels, Tabs as AriaTabs, type Key } from 'react-aria-components';
import { cx, FOCUS_RING, TOUCH_HEIGHT } from './class-names';

export interface TabItem {
  id: Key;
  /** Already translated. */
  label: string;
  content: ReactNode;
  /** Makes the tab a link, for tabs that are routes; then control `selectedKey` from the URL. */
  href?: string;
  isDisabled?: boolean;
}

export interface TabsProps {
  /** Accessible name of the tab list, already translated. */
  'aria-label': string;
  items: readonly TabItem[];
  selectedKey?: Key;
  defaultSelectedKey?: Key;
  onSelectionChange?: (key: Key) => void;
  /** Layout only. */
  className?: string;
}

/**
 * Tabs with their panels. Arrow keys move between tabs; on phones the tab row scrolls sideways
 * instead of wrapping.
 */
export function Tabs({ items, className, ...props }: TabsProps) {
  return (
    <AriaTabs
      selectedKey={props.selectedKey}
      defaultSelectedKey={props.defaultSelectedKey}
      onSelectionChange={props.onSelectionChange}
      disabledKeys={items.filter((item) => item.isDisabled).map((item) => item.id)}
      className={cx('flex min-w-0 flex-col', className)}
    >
      <TabList
        aria-label={props['aria-label']}
        items={items}
        className="flex overflow-x-auto overscroll-x-contain border-b border-gray-200 [scrollbar-width:thin]"
      >
        {(item) => (
          <Tab
            id={item.id}
            href={item.href}
            className={cx(
              'flex shrink-0 cursor-default items-center border-b-2 border-transparent px-4 text-sm font-medium whitespace-nowrap text-gray-600 no-underline select-none',
              TOUCH_HEIGHT.md,
              FOCUS_RING,
              'data-focus-visible:-outline-offset-2',
              'data-hovered:text-gray-900 data-selected:border-blue-700 data-selected:text-blue-800',
              'data-disabled:cursor-not-allowed data-disabled:text-gray-400',
            )}
          >
            {item.label}
          </Tab>
        )}
      </TabList>
      <TabPanels items={items}>
        {(item) => (
          <TabPanel id={item.id} className={cx('pt-4 outline-none', FOCUS_RING)}>
            {item.content}
          </TabPanel>
        )}
      </TabPanels>
    </AriaTabs>
  );
}

/**
 * The work-order screen's tabs (spec section 4, "List loading and tabs"): a list, calendar or map
 * tab plus one tab per opened work order. Pure functions over a plain state, so the rules are unit
 * tested and the state can live in localStorage (tabs survive a reload).
 */

/** The screen's own tabs; the calendar and map arrive with dispatch. */
export const VIEW_TABS = ['list', 'calendar', 'map'] as const;
export type ViewTab = (typeof VIEW_TABS)[number];

export interface OrderTab {
  id: string;
  /** The order's number: two orders with one title (a revisit) are told apart by it. */
  number?: string | null;
  title: string;
  customerName: string | null;
  isEdited: boolean;
}

export interface TabState {
  tabs: OrderTab[];
  /** A view tab or an order tab's id. */
  active: ViewTab | string;
  /** The list, calendar or map tab to return to. */
  previous: ViewTab;
}

export const INITIAL_TABS: TabState = { tabs: [], active: 'list', previous: 'list' };

export const isViewTab = (key: string): key is ViewTab => (VIEW_TABS as readonly string[]).includes(key);

/** Opens (or re-activates) an order's tab and remembers the view tab it was opened from. */
export function openTab(state: TabState, tab: Omit<OrderTab, 'isEdited'> & { isEdited?: boolean }): TabState {
  const previous = isViewTab(state.active) ? state.active : state.previous;
  const existing = state.tabs.find((t) => t.id === tab.id);
  const tabs = existing
    ? state.tabs.map((t) =>
        t.id === tab.id
          ? {
              ...t,
              number: tab.number ?? t.number ?? null,
              title: tab.title || t.title,
              customerName: tab.customerName ?? t.customerName,
            }
          : t,
      )
    : [
        ...state.tabs,
        {
          id: tab.id,
          number: tab.number ?? null,
          title: tab.title,
          customerName: tab.customerName,
          isEdited: tab.isEdited ?? false,
        },
      ];
  return { tabs, active: tab.id, previous };
}

/** Activates a view tab (list, calendar, map). */
export function showView(state: TabState, view: ViewTab): TabState {
  return { ...state, active: view, previous: view };
}

/** Closes one tab; closing the active one returns to the remembered view tab. */
export function closeTab(state: TabState, id: string): TabState {
  const tabs = state.tabs.filter((t) => t.id !== id);
  const active = state.active === id ? state.previous : state.active;
  return { ...state, tabs, active };
}

/** Closes every order tab and returns to the list. */
export function closeAllTabs(_state: TabState): TabState {
  return { tabs: [], active: 'list', previous: 'list' };
}

/**
 * An edit of `field` on the order marks its tab edited, unless the field is UI state (`ui:`) or a
 * lock toggle (`locked`, in any case: our field is `isLocked`).
 */
export function markEdited(state: TabState, id: string, field: string): TabState {
  if (field.includes('ui:') || field.toLowerCase().includes('locked')) return state;
  if (!state.tabs.some((t) => t.id === id && !t.isEdited)) return state;
  return { ...state, tabs: state.tabs.map((t) => (t.id === id ? { ...t, isEdited: true } : t)) };
}

/** A saved order: its tab is no longer edited and shows the saved title and customer. */
export function savedTab(state: TabState, id: string, title?: string, customerName?: string | null): TabState {
  return {
    ...state,
    tabs: state.tabs.map((t) =>
      t.id === id
        ? {
            ...t,
            isEdited: false,
            title: title ?? t.title,
            customerName: customerName === undefined ? t.customerName : customerName,
          }
        : t,
    ),
  };
}

/** A deleted order loses its tab, and the screen returns to the list. */
export function deletedOrder(state: TabState, id: string): TabState {
  return { ...state, tabs: state.tabs.filter((t) => t.id !== id), active: 'list', previous: 'list' };
}

/** A stored state, checked: anything unreadable starts afresh. */
export function parseTabState(raw: string | null): TabState {
  if (!raw) return INITIAL_TABS;
  try {
    const v = JSON.parse(raw) as Partial<TabState>;
    if (!v || !Array.isArray(v.tabs)) return INITIAL_TABS;
    const tabs = v.tabs
      .filter((t): t is OrderTab => Boolean(t) && typeof t.id === 'string' && typeof t.title === 'string')
      .map((t) => ({
        id: t.id,
        number: typeof t.number === 'string' ? t.number : null,
        title: t.title,
        customerName: typeof t.customerName === 'string' ? t.customerName : null,
        isEdited: t.isEdited === true,
      }));
    const previous = typeof v.previous === 'string' && isViewTab(v.previous) ? v.previous : 'list';
    const active =
      typeof v.active === 'string' && (isViewTab(v.active) || tabs.some((t) => t.id === v.active))
        ? v.active
        : previous;
    return { tabs, active, previous };
  } catch {
    return INITIAL_TABS;
  }
}

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  closeAllTabs,
  closeTab,
  deletedOrder,
  INITIAL_TABS,
  markEdited,
  openTab,
  parseTabState,
  savedTab,
  showView,
  type OrderTab,
  type TabState,
  type ViewTab,
} from './tab-rules';

export interface TabsApi {
  state: TabState;
  /** False until the stored tabs are read (after hydration). */
  ready: boolean;
  open: (tab: Omit<OrderTab, 'isEdited'>) => void;
  showView: (view: ViewTab) => void;
  /** Closes a tab and answers where to go when it was the active one (null: stay). */
  close: (id: string) => ViewTab | null;
  closeAll: () => void;
  edited: (id: string, field: string) => void;
  saved: (id: string, title?: string, customerName?: string | null) => void;
  deleted: (id: string) => void;
}

const TabsContext = createContext<TabsApi | null>(null);

const storageKey = (userId: string) => `ordo.workOrderTabs.${userId}`;

/**
 * The work-order screen's tabs for the signed-in person, kept in localStorage so they survive a
 * reload (and stay apart per user on a shared computer).
 */
export function WorkOrderTabsProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const [state, setState] = useState<TabState>(INITIAL_TABS);
  const [ready, setReady] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    let stored: string | null = null;
    try {
      stored = window.localStorage.getItem(storageKey(userId));
    } catch {
      // storage refused (private mode): tabs live for this page only
    }
    // a tab opened before the stored ones were read (a deep link) stays open and active
    setState((current) => {
      const restored = parseTabState(stored);
      return current.tabs.reduce((s, t) => openTab(s, t), restored);
    });
    setReady(true);
  }, [userId]);

  useEffect(() => {
    if (!ready) return;
    try {
      window.localStorage.setItem(storageKey(userId), JSON.stringify(state));
    } catch {
      // see above
    }
  }, [state, ready, userId]);

  const update = useCallback((f: (s: TabState) => TabState) => setState((s) => f(s)), []);
  const api = useMemo<TabsApi>(
    () => ({
      state,
      ready,
      open: (tab) => update((s) => openTab(s, tab)),
      showView: (view) => update((s) => showView(s, view)),
      close: (id) => {
        const before = stateRef.current;
        const next = closeTab(before, id);
        setState(next);
        return before.active === id ? next.previous : null;
      },
      closeAll: () => update(closeAllTabs),
      edited: (id, field) => update((s) => markEdited(s, id, field)),
      saved: (id, title, customerName) => update((s) => savedTab(s, id, title, customerName)),
      deleted: (id) => update((s) => deletedOrder(s, id)),
    }),
    [state, ready, update],
  );
  return <TabsContext.Provider value={api}>{children}</TabsContext.Provider>;
}

export function useWorkOrderTabs(): TabsApi {
  const api = useContext(TabsContext);
  if (!api) throw new Error('useWorkOrderTabs outside WorkOrderTabsProvider');
  return api;
}

import { describe, expect, it } from 'vitest';
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
  type TabState,
} from './tab-rules';

const a = { id: 'a', number: '1001', title: 'Larm', customerName: 'Solros AB' };
const b = { id: 'b', number: null, title: 'Port', customerName: null };

describe('[work orders] the tab rules of spec section 4', () => {
  it('opening a tab activates it and remembers the view tab it came from', () => {
    const s = openTab(showView(INITIAL_TABS, 'map'), a);
    expect(s.active).toBe('a');
    expect(s.previous).toBe('map');
    expect(s.tabs).toEqual([{ ...a, isEdited: false }]);
  });

  it('opening from another order tab keeps the remembered view tab, and an open tab is not doubled', () => {
    let s = openTab(showView(INITIAL_TABS, 'calendar'), a);
    s = openTab(s, b);
    expect(s.previous).toBe('calendar');
    s = openTab(s, { ...a, title: 'Larm, nytt namn' });
    expect(s.tabs.map((t) => t.id)).toEqual(['a', 'b']);
    expect(s.tabs[0]?.title).toBe('Larm, nytt namn');
    expect(s.active).toBe('a');
  });

  it('closing the active tab returns to the previous view tab; closing another keeps the active one', () => {
    let s = openTab(showView(INITIAL_TABS, 'map'), a);
    s = openTab(s, b);
    const other = closeTab(s, 'a');
    expect(other.active).toBe('b');
    expect(other.tabs.map((t) => t.id)).toEqual(['b']);
    const active = closeTab(s, 'b');
    expect(active.active).toBe('map');
  });

  it('closing all returns to the list', () => {
    const s = closeAllTabs(openTab(openTab(showView(INITIAL_TABS, 'map'), a), b));
    expect(s).toEqual({ tabs: [], active: 'list', previous: 'list' });
  });

  it('an edit marks the tab edited unless the field name holds ui: or locked; a save clears it', () => {
    const s = openTab(INITIAL_TABS, a);
    expect(markEdited(s, 'a', 'ui:expanded').tabs[0]?.isEdited).toBe(false);
    expect(markEdited(s, 'a', 'isLocked').tabs[0]?.isEdited).toBe(false);
    expect(markEdited(s, 'a', 'locked').tabs[0]?.isEdited).toBe(false);
    const edited = markEdited(s, 'a', 'title');
    expect(edited.tabs[0]?.isEdited).toBe(true);
    const saved = savedTab(edited, 'a', 'Nytt', 'Vitsippan');
    expect(saved.tabs[0]).toEqual({
      id: 'a',
      number: '1001',
      title: 'Nytt',
      customerName: 'Vitsippan',
      isEdited: false,
    });
  });

  it('a deleted order loses its tab and the screen goes back to the list', () => {
    const s = deletedOrder(openTab(openTab(showView(INITIAL_TABS, 'map'), a), b), 'b');
    expect(s.tabs.map((t) => t.id)).toEqual(['a']);
    expect(s.active).toBe('list');
  });

  it('survives a reload: a stored state reads back; garbage starts afresh', () => {
    const s: TabState = markEdited(openTab(showView(INITIAL_TABS, 'calendar'), a), 'a', 'title');
    expect(parseTabState(JSON.stringify(s))).toEqual(s);
    expect(parseTabState('{nope')).toEqual(INITIAL_TABS);
    expect(parseTabState(null)).toEqual(INITIAL_TABS);
    expect(parseTabState(JSON.stringify({ tabs: [{ id: 1 }], active: 'x', previous: 'sideways' }))).toEqual(
      INITIAL_TABS,
    );
  });
});

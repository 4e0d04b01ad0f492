import { useEffect, useRef, useState } from 'react';
import { useFetcher, useNavigate } from 'react-router';
import { WO_LIST_DEBOUNCE_MS } from './list-params';

/**
 * The work-order filters as the list and the map tab change them (spec sections 2 and 4): a
 * change is a new address on the same tab (offset 0) and is remembered for the person; the search
 * box waits 300 ms after the last key. `path` is the tab's own address, so searching on the map
 * stays on the map.
 */
export function useListFilters(params: URLSearchParams, currentSearch: string, path: '/' | '/work-orders/map') {
  const navigate = useNavigate();
  const prefs = useFetcher();

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    next.delete('from');
    // an empty query would mean "the remembered filters": say "the open list" instead
    if (![...next.keys()].length) next.set('list', 'open');
    void navigate(`${path}?${next.toString()}`, { replace: true, preventScrollReset: true });
    void prefs.submit({ query: next.toString() }, { method: 'post', action: '/?index' });
  };

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const [text, setText] = useState(currentSearch);
  const sent = useRef(currentSearch);
  useEffect(() => {
    if (currentSearch !== sent.current) {
      sent.current = currentSearch;
      setText(currentSearch);
    }
  }, [currentSearch]);
  const search = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      sent.current = value.trim();
      update({ search: value.trim() || null });
    }, WO_LIST_DEBOUNCE_MS);
  };

  return { update, text, search };
}

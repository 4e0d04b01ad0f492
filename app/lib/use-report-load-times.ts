import { useEffect, useRef } from 'react';
import { useMatches, useNavigation } from 'react-router';

/**
 * The pages report their own load time (issue 36 item 6, POST /instance/m; decision 062): the first
 * page from the browser's navigation timing, every later one from the start of its navigation to
 * its render. Kept in memory and sent only when the page is hidden or left, as beacons — the
 * way real-user monitoring sends (web.dev "sendBeacon on visibilitychange") — so that no request
 * of ours runs while the person works: an earlier version posted after every navigation, and the
 * browser tests' "network idle" then never came.
 */
const ENDPOINT = '/api/instance/m';
/** At most this many wait; older ones give way (a tab left open all day sends its last pages). */
const MAX_QUEUED = 30;
const NAME = /[^A-Za-z0-9/_.:$-]/g;

const queue: { name: string; timeMs: number }[] = [];

/** Queues one page's measure (its route id, made to fit the call's name rule). */
export function rememberLoadTime(name: string, timeMs: number): void {
  if (!Number.isFinite(timeMs) || timeMs < 0 || timeMs > 600_000) return;
  queue.push({ name: name.replace(NAME, '_').slice(0, 100) || 'page', timeMs: Math.round(timeMs) });
  if (queue.length > MAX_QUEUED) queue.shift();
}

/** Sends what is queued as beacons (each the call's {name, timeMs}); the browser delivers them after the page goes. */
export function flushLoadTimes(): void {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
  while (queue.length) {
    const one = queue.shift()!;
    const sent = navigator.sendBeacon(ENDPOINT, new Blob([JSON.stringify(one)], { type: 'application/json' }));
    if (!sent) break; // the browser's beacon budget is spent: the rest are dropped with the page
  }
}

/** In the signed-in shell: measures every page shown and sends the measures when the page is hidden or left. */
export function useReportLoadTimes(): void {
  const navigation = useNavigation();
  const matches = useMatches();
  const leaf = matches[matches.length - 1]?.id ?? 'page';
  const started = useRef<number | null>(null);
  const first = useRef(true);

  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') flushLoadTimes();
    };
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', flushLoadTimes);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', flushLoadTimes);
    };
  }, []);

  useEffect(() => {
    if (navigation.state === 'loading' && started.current === null) started.current = performance.now();
  }, [navigation.state]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      // until the page answers to input: the document's load, or now if it is still loading
      rememberLoadTime(leaf, nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : performance.now());
      return;
    }
    if (navigation.state === 'idle' && started.current !== null) {
      rememberLoadTime(leaf, performance.now() - started.current);
      started.current = null;
    }
  }, [navigation.state, leaf]);
}

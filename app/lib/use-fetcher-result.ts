import { useEffect, useRef } from 'react';

/**
 * Runs `onResult` once for each answer a fetcher settles on (not again on re-render, nor while it
 * is still submitting or loading), and returns that answer for the page to read.
 */
export function useFetcherResult<T>(fetcher: { state: string; data: T | undefined }, onResult: (result: T) => void) {
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const handled = useRef<T | undefined>(undefined);
  const latest = useRef(onResult);
  latest.current = onResult;
  useEffect(() => {
    if (result === undefined || handled.current === result) return;
    handled.current = result;
    latest.current(result);
  }, [result]);
  return result;
}

import { useCallback, useLayoutEffect, useRef } from "react";

/**
 * A function whose identity never changes and that always calls the latest `callback`, so that
 * memoized children (the result cards, the run lists) are not re-rendered by a new closure.
 * Not for use during rendering: it reads the callback of the last committed render.
 */
export function useStableCallback<A extends unknown[], R>(
  callback: (...args: A) => R,
): (...args: A) => R {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

import { screenAt, SCREEN_CODE } from "./screen-code";

/*
 * Imported first by main.tsx, from a chunk of its own with no dependencies (vite.config.ts), so
 * that it runs as soon as the app's scripts are downloaded, before they are evaluated: it starts
 * fetching the code of the screen the URL opens, which the router would ask for only once the
 * app had started and rendered (on a cold open, about 250 ms later: docs/performance.md, "Large
 * runs"). A failed fetch is left to the route, which loads the screen again and shows the error.
 * On a data-harmonization host every path shows that screen: its usual paths, / and /data,
 * preload nothing and the right screen.
 */
const screen = screenAt(location.pathname);
const loading = screen ? SCREEN_CODE[screen].load().then(noop, noop) : Promise.resolve();

function noop() {}

/**
 * Settles once the screen's code is in (or failed), or after `ms` if given: main.tsx renders
 * then, so that the screen renders at once instead of suspending. React keeps a Suspense
 * fallback on screen for at least 300 ms once shown; rendered before the code was in, a cold
 * open of a run's dialog showed the page's progress bar and then nothing for 150 ms.
 */
export function screenCodeIn(ms?: number): Promise<void> {
  if (ms === undefined) return loading;
  return Promise.race([loading, new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}

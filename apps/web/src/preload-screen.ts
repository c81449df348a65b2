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
if (screen) SCREEN_CODE[screen].load().catch(() => undefined);

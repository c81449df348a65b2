import { useSyncExternalStore } from "react";

/**
 * The list's size until it is measured: on the server, which renders a dialog opened with the
 * page (first-screen.tsx), and in the first render that takes that HTML over, which must match.
 * About a laptop screen's list: the rows of the first page fill it.
 */
export const UNMEASURED_LIST = { width: 1200, height: 800 };

const noSubscription = () => () => undefined;

/**
 * True while the list renders on the server (a dialog opened with the page: first-screen.tsx)
 * and while the app takes that HTML over, which must render the same; false from the next
 * render on, and in a page the app renders itself. Unmeasured, the rows flow one after another,
 * each as tall as its content, rather than at estimated places, where a taller card would be
 * drawn over by the next; then they go to their measured places, which are the same.
 */
export function useRowsInFlow(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

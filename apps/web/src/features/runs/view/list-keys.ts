import type { Virtualizer } from "@tanstack/react-virtual";
import type { KeyboardEvent } from "react";

/**
 * Home and End on a results list go to its first and last result through the virtualizer, not
 * the browser's smooth scroll to the list's estimated end: rows measured during that animation
 * move the rows above the screen, the virtualizer corrects the scroll position, and the
 * correction stopped the animation part way (a 100,000-result list took up to six presses of
 * End). scrollToEnd lands on the last row and stays at the end as the rows there are measured.
 */
export function onListKeys(virtualizer: Virtualizer<HTMLDivElement, Element>, count: number) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (
      count === 0 ||
      target.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)
    ) {
      return;
    }
    if (event.key === "End") {
      event.preventDefault();
      virtualizer.scrollToEnd();
    } else if (event.key === "Home") {
      event.preventDefault();
      virtualizer.scrollToIndex(0, { align: "start" });
    }
  };
}

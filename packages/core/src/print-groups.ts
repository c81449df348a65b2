/**
 * The print view's grouping (spec section 2, "Print screen"): each screenshot with the steps
 * that precede it. A screenshot's step_index is the index of the step it follows, so it takes the
 * steps after the previous screenshot's up to and including its own.
 */

export interface IndexedStep<T> {
  /** Position in the result's steps, from 0. */
  index: number;
  step: T;
}

export interface ScreenshotGroup<S, T> {
  screenshot: S;
  /** The steps taken since the previous screenshot; empty when none were. */
  steps: IndexedStep<T>[];
}

export interface PrintGroups<S, T> {
  groups: ScreenshotGroup<S, T>[];
  /** Steps after the last screenshot (for example the failing step that no screenshot shows). */
  remaining: IndexedStep<T>[];
}

/**
 * Groups `screenshots` (in the order taken) with the steps before each. A screenshot without a
 * step_index, or one pointing at or before a step an earlier screenshot already took, gets no
 * steps; an index past the last step takes the rest. Every step appears exactly once.
 */
export function groupScreenshotsWithSteps<S extends { step_index: number | null }, T>(
  steps: readonly T[],
  screenshots: readonly S[],
): PrintGroups<S, T> {
  const indexed = steps.map((step, index) => ({ index, step }));
  let next = 0;
  const groups = screenshots.map((screenshot) => {
    if (screenshot.step_index === null || screenshot.step_index < next) {
      return { screenshot, steps: [] };
    }
    const end = Math.min(screenshot.step_index + 1, indexed.length);
    const taken = indexed.slice(next, end);
    next = Math.max(next, end);
    return { screenshot, steps: taken };
  });
  return { groups, remaining: indexed.slice(next) };
}

/**
 * The pass/fail bar of Test History (spec section 2): green for the passed share, red for the
 * rest, percent = passed / total * 100; a share's label shows only when it is over 4% (spec
 * section 9), because a narrower segment cannot hold it.
 */

/** A share's label is shown only when the share is over this percent. */
export const BAR_LABEL_MIN_PERCENT = 4;

export interface BarShare {
  percent: number;
  /** "83.3%", or null when the share is too narrow to carry a label. */
  label: string | null;
}

export interface PassShare {
  total: number;
  passed: number;
  /** Everything that did not pass: failed, skipped and other results. */
  rest: number;
  passedShare: BarShare;
  restShare: BarShare;
}

function share(percent: number): BarShare {
  // One decimal is enough to tell 66.7% from 67%, and keeps the label short.
  const shown = Math.round(percent * 10) / 10;
  return { percent, label: percent > BAR_LABEL_MIN_PERCENT ? `${shown}%` : null };
}

/**
 * The two segments of the bar for `passed` out of `total` results. With no results both shares
 * are 0 and unlabelled (there is nothing to show a bar for).
 */
export function passShare(passed: number, total: number): PassShare {
  const safeTotal = Math.max(0, Math.floor(total));
  const safePassed = Math.min(Math.max(0, Math.floor(passed)), safeTotal);
  if (safeTotal === 0) {
    return {
      total: 0,
      passed: 0,
      rest: 0,
      passedShare: { percent: 0, label: null },
      restShare: { percent: 0, label: null },
    };
  }
  const passedPercent = (safePassed / safeTotal) * 100;
  return {
    total: safeTotal,
    passed: safePassed,
    rest: safeTotal - safePassed,
    passedShare: share(passedPercent),
    restShare: share(100 - passedPercent),
  };
}

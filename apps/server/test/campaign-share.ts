/**
 * CI runs the server project twice (.ci/run: the embedded PostgreSQL on Node 20, then the
 * external one on Node 24). A campaign too slow to run whole on both passes checks one share of
 * its cases on each: CAMPAIGN_SHARE=1/2 on the first, 2/2 on the second, so that a CI run still
 * checks every case, once. Unset (a local run), a campaign checks all of its cases.
 */
export interface CampaignShare {
  /** 1-based: which share this run checks. */
  index: number;
  count: number;
}

export function campaignShare(value = process.env.CAMPAIGN_SHARE): CampaignShare {
  if (value === undefined || value === "") return { index: 1, count: 1 };
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  // A typo must not silently check nothing (or everything twice): it stops the run.
  if (!match || count < 1 || index < 1 || index > count) {
    throw new Error(`CAMPAIGN_SHARE=${value}: expected i/n with 1 <= i <= n, as 1/2 or 2/2`);
  }
  return { index, count };
}

/**
 * Whether the case dealt number `n` belongs to this run's share: the shares take turns, so every
 * number belongs to exactly one. The campaign chooses the numbers (its case's position, or a
 * sum that spreads each value over the shares).
 */
export function inShare(n: number, share: CampaignShare): boolean {
  return n % share.count === share.index - 1;
}

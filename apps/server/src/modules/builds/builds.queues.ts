import { jobQueue } from "../../jobs/jobs.js";

/** The build runner's queues (a module of their own: the runner and the poller both send). */
export const START_QUEUE = jobQueue<{ buildId: number }>("builds-start", {
  retryLimit: 3,
  retryDelay: 5,
  retryBackoff: true,
});
/** One poll cycle at a time across servers; each cycle queues the next. */
export const POLL_QUEUE = jobQueue<{ cycle: number }>("builds-poll", {
  policy: "stately",
  expireInSeconds: 300,
  retryLimit: 0,
});

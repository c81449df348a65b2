import { Cron } from "croner";
import cronstrue from "cronstrue";

/**
 * When a schedule runs: croner computes the slots of a 5-field cron in an IANA time zone,
 * daylight-saving changes included (a time skipped in spring runs at the end of the gap, a time
 * repeated in autumn runs once, as Vixie cron does); cronstrue says it in words.
 */

/** Why a time zone is refused, or undefined when it is a known IANA name. */
export function timeZoneProblem(timeZone: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return undefined;
  } catch {
    return `Unknown time zone "${timeZone}": use an IANA name such as UTC or Europe/Berlin.`;
  }
}

/** Why a cron or time zone is refused, or undefined when both are usable. */
export function scheduleProblem(cron: string, timeZone: string): string | undefined {
  const zone = timeZoneProblem(timeZone);
  if (zone) return zone;
  if (cron.trim().split(/\s+/).length !== 5) {
    return `The cron "${cron}" needs five fields: minute hour day-of-month month day-of-week, e.g. "0 2 * * *" for every day at 02:00.`;
  }
  try {
    cronOf(cron, timeZone);
  } catch (error) {
    return `The cron "${cron}" is not valid: ${(error as Error).message.replace(/^CronPattern: /, "")}.`;
  }
  return undefined;
}

/** Slots looked at for the shortest gap: a cron's densest stretch shows within this many. */
const GAP_SAMPLE = 1000;

/**
 * Why a cron runs too often, or undefined: two of its slots closer than `minMs` (from `after`,
 * over its next GAP_SAMPLE slots, so "every 5 minutes from 9 to 10" is found as well).
 */
export function frequencyProblem(
  cron: string,
  timeZone: string,
  minMs: number,
  after = new Date(),
): string | undefined {
  const slots = nextSlots(cron, timeZone, after, GAP_SAMPLE);
  for (let i = 1; i < slots.length; i++) {
    if (slots[i]!.getTime() - slots[i - 1]!.getTime() < minMs) {
      const minutes = Math.round(minMs / 60_000);
      return `The cron "${cron}" launches builds less than ${minutes} minutes apart; a schedule may run at most every ${minutes} minutes (ASSAY_SCHEDULE_MIN_GAP_MINUTES). Use "Run now" for an extra build.`;
    }
  }
  return undefined;
}

function cronOf(cron: string, timeZone: string): Cron {
  return new Cron(cron, { timezone: timeZone, paused: true, mode: "5-part" });
}

/** The first `count` slots strictly after `after`. */
export function nextSlots(cron: string, timeZone: string, after: Date, count: number): Date[] {
  return cronOf(cron, timeZone).nextRuns(count, after);
}

/** Every slot in (after, until], oldest first, at most `limit` (the newest ones when more). */
export function slotsBetween(
  cron: string,
  timeZone: string,
  after: Date,
  until: Date,
  limit: number,
): Date[] {
  const job = cronOf(cron, timeZone);
  const slots: Date[] = [];
  let previous = after;
  for (;;) {
    const next = job.nextRun(previous);
    if (!next || next.getTime() > until.getTime()) break;
    slots.push(next);
    if (slots.length > limit) slots.shift();
    previous = next;
  }
  return slots;
}

/** The schedule in words, e.g. "At 02:00, Monday through Friday (Europe/Berlin)". */
export function describeSchedule(cron: string, timeZone: string): string {
  const words = cronstrue.toString(cron, { use24HourTimeFormat: true, verbose: false });
  return `${words} (${timeZone})`;
}

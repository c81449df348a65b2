import { NOTIFY_TOP_FAILURES, runWallClockMs, type NotifyEmail } from "@assay/core";
import { runUrl } from "../settings/webhook.js";
import {
  deliverEmail,
  deliverHttp,
  MAX_ATTEMPTS,
  retryDelaySeconds,
  type Attempt,
} from "./notify.deliver.js";
import { emailParts, PAYLOADS, type FailureGroup, type RunMessage } from "./notify.messages.js";
import * as repo from "./notify.repo.js";
import { openSecret, type NotifyDeps } from "./notify.service.js";

/**
 * The outbox's worker: takes due deliveries, decides whether the rule's "when" holds for the
 * run (else the delivery is recorded as skipped, with the reason), sends, and records the
 * outcome or the time of the next attempt (Retry-After honoured, backoff otherwise).
 */

/** How long a claimed delivery is this worker's before another may take it. */
const LEASE_SECONDS = 120;
const BATCH = 20;

/** Why a run is not sent under the rule, or the message's outcome and failures when it is. */
async function decide(
  deps: NotifyDeps,
  rule: repo.RuleRow,
  run: repo.RunFacts,
): Promise<Decision | { skip: string }> {
  const failed = run.failed > 0;
  const onlyNew = rule.when_to === "new_failures";
  const failures = () =>
    deps.failureGroups.groups(run.key, { onlyNew, limit: NOTIFY_TOP_FAILURES });
  if (rule.when_to === "always")
    return { outcome: failed ? "failed" : "passed", failures: failed ? await failures() : [] };
  if (!failed) {
    if (rule.when_to !== "recovery") return { skip: "no failed tests" };
    const before = await repo.previousRunFailed(deps.db.pool, Number(rule.id), Number(run.id));
    return before
      ? { outcome: "recovered", failures: [] }
      : { skip: "the run before it had no failures" };
  }
  if (rule.when_to === "recovery") return { skip: "the run failed; the rule sends on recovery" };
  const groups = await failures();
  if (onlyNew && groups.length === 0)
    return { skip: "no new failures: every failure group was seen in the job's recent runs" };
  return { outcome: "failed", failures: groups };
}

interface Decision {
  outcome: RunMessage["outcome"];
  failures: FailureGroup[];
}

export function buildMessage(
  rule: repo.RuleRow,
  run: repo.RunFacts,
  publicUrl: string,
  decision: Decision,
): RunMessage {
  // The figure the run list and the results dialog show (core's wall clock), so the message
  // and the screen agree; the tests' summed time when the run has no start.
  const wall = runWallClockMs({
    started_at: run.started_at?.toISOString() ?? null,
    finished_at: run.finished_at?.toISOString() ?? null,
  });
  return {
    ruleName: rule.name,
    outcome: decision.outcome,
    run: { key: run.key, name: run.name, family: run.family, branch: run.branch, site: run.site },
    counts: {
      total: run.total,
      passed: run.passed,
      failed: run.failed,
      skipped: run.skipped,
      flaky: run.flaky,
    },
    durationMs: wall ?? run.duration_ms,
    failures: decision.failures,
    failuresTitle: rule.when_to === "new_failures" ? "New failures" : "Top failures",
    url: runUrl(publicUrl, run),
  };
}

async function send(deps: NotifyDeps, rule: repo.RuleRow, message: RunMessage): Promise<Attempt> {
  const secret = openSecret(deps, rule);
  if (rule.channel === "email") {
    return deliverEmail(rule.email as NotifyEmail, secret, emailParts(message), deps.policy);
  }
  if (!secret)
    return {
      kind: "failed",
      message: "the rule's webhook URL is missing or unreadable: save it again",
    };
  return deliverHttp(secret, PAYLOADS[rule.channel](message), deps.policy);
}

async function deliverOne(deps: NotifyDeps, claimed: repo.ClaimedRow): Promise<void> {
  const rule = await repo.findRule(deps.db.pool, Number(claimed.rule_id));
  const run = await repo.runFacts(deps.db.pool, Number(claimed.run_id));
  if (!rule || !rule.is_active || !run) {
    await repo.settle(deps.db.pool, claimed.id, "skipped", "the rule was archived or paused");
    return;
  }
  const decision = await decide(deps, rule, run);
  if ("skip" in decision) {
    await repo.settle(deps.db.pool, claimed.id, "skipped", decision.skip);
    return;
  }
  const attempt = await send(deps, rule, buildMessage(rule, run, deps.publicUrl, decision));
  if (attempt.kind === "retry" && claimed.attempts < MAX_ATTEMPTS) {
    const wait = retryDelaySeconds(claimed.attempts, attempt.retryAfterSeconds);
    await repo.settle(
      deps.db.pool,
      claimed.id,
      "pending",
      `${attempt.message}; retrying in ${Math.round(wait)} s`,
      wait,
    );
    return;
  }
  const state = attempt.kind === "sent" ? "sent" : "failed";
  await repo.settle(deps.db.pool, claimed.id, state, attempt.message);
  deps.log.info(
    { rule: rule.name, channel: rule.channel, run: run.key, state },
    "notification delivered",
  );
}

/**
 * Delivers what is due, batch by batch; answers the seconds until the next pending delivery is
 * due (a retry), so the caller can schedule the next sweep then.
 */
export async function sweep(deps: NotifyDeps): Promise<number | undefined> {
  for (;;) {
    const claimed = await repo.claimDue(deps.db.pool, BATCH, LEASE_SECONDS);
    for (const row of claimed) {
      try {
        await deliverOne(deps, row);
      } catch (error) {
        // The lease runs out and a later sweep tries again; the error is for the log only.
        deps.log.warn(
          { err: error, delivery: row.id },
          "notification delivery failed unexpectedly",
        );
      }
    }
    if (claimed.length < BATCH) break;
  }
  return repo.secondsToNextDue(deps.db.pool);
}

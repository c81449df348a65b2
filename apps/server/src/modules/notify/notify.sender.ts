import { NOTIFY_TOP_FAILURES, type NotifyEmail } from "@assay/core";
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
/** Failed tests read to group when triage's groups are absent, and tests shown per group. */
const FAILURES_READ = 500;
const TESTS_PER_GROUP = 5;

/** Why a run is not sent under the rule, or the message's outcome when it is. */
async function decide(
  deps: NotifyDeps,
  rule: repo.RuleRow,
  run: repo.RunFacts,
): Promise<{ outcome: RunMessage["outcome"] } | { skip: string }> {
  const failed = run.failed > 0;
  if (rule.when_to === "always") return { outcome: failed ? "failed" : "passed" };
  if (rule.when_to === "failure" || rule.when_to === "new_failures") {
    return failed ? { outcome: "failed" } : { skip: "no failed tests" };
  }
  if (failed) return { skip: "the run failed; the rule sends on recovery" };
  const before = await repo.previousRunFailed(deps.db.pool, Number(rule.id), Number(run.id));
  return before ? { outcome: "recovered" } : { skip: "the run before it had no failures" };
}

async function failuresOf(
  deps: NotifyDeps,
  rule: repo.RuleRow,
  runId: number,
): Promise<FailureGroup[]> {
  if (deps.failureGroups) {
    return deps.failureGroups.groups(runId, {
      onlyNew: rule.when_to === "new_failures",
      limit: NOTIFY_TOP_FAILURES,
    });
  }
  // Without triage: the run's failures grouped by their error's first line, biggest first.
  const tests = await repo.topFailedTests(deps.db.pool, runId, FAILURES_READ);
  const groups = new Map<string, string[]>();
  for (const test of tests) {
    const title = test.error?.split("\n")[0]?.trim() || "Failed without a message";
    groups.set(title, [...(groups.get(title) ?? []), test.name]);
  }
  return [...groups]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, NOTIFY_TOP_FAILURES)
    .map(([title, names]) => ({
      title,
      tests:
        names.length > TESTS_PER_GROUP
          ? [...names.slice(0, TESTS_PER_GROUP), `…and ${names.length - TESTS_PER_GROUP} more`]
          : names,
    }));
}

export async function buildMessage(
  deps: NotifyDeps,
  rule: repo.RuleRow,
  run: repo.RunFacts,
  outcome: RunMessage["outcome"],
): Promise<RunMessage> {
  const wall =
    run.started_at && run.finished_at ? run.finished_at.getTime() - run.started_at.getTime() : 0;
  return {
    ruleName: rule.name,
    outcome,
    run: { key: run.key, name: run.name, family: run.family, branch: run.branch, site: run.site },
    counts: {
      total: run.total,
      passed: run.passed,
      failed: run.failed,
      skipped: run.skipped,
      flaky: run.flaky,
    },
    durationMs: wall > 0 ? wall : run.duration_ms,
    failures: run.failed > 0 ? await failuresOf(deps, rule, Number(run.id)) : [],
    url: runUrl(deps.publicUrl, run),
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
  const attempt = await send(deps, rule, await buildMessage(deps, rule, run, decision.outcome));
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

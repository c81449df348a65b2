import {
  type NotifyEmail,
  type NotifyRule,
  type NotifyRuleBody,
  type NotifyRuleList,
} from "@assay/core";
import type { Logger } from "pino";
import type pg from "pg";
import type { Db } from "../../db/pool.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import { open, seal } from "../../secret-box.js";
import { webhookUrlProblem, type WebhookPolicy } from "../settings/webhook-url.js";
import * as repo from "./notify.repo.js";

/**
 * Notification rules: saved with their secret sealed (secret-box, bound to the rule's id) and
 * answered without it. What a run's delivery says and whether it is sent is notify.sender.ts.
 */

/** Where failure groups come from: triage (notify.groups.ts); tests pass their own. */
export interface FailureGroupSource {
  /** The run's failure groups, biggest first; `onlyNew`: new groups and regressions only. */
  groups(
    runKey: string,
    options: { onlyNew: boolean; limit: number },
  ): Promise<{ title: string; tests: string[] }[]>;
}

export interface NotifyDeps {
  db: Db;
  /** The key secrets are sealed with (derived from the installation's secret). */
  key: Buffer;
  /** ASSAY_PUBLIC_URL: links in messages are absolute. */
  publicUrl: string;
  /** The SSRF rules of the scheduler's webhook, for every URL and SMTP host. */
  policy: WebhookPolicy;
  failureGroups: FailureGroupSource;
  log: Logger;
}

const DELIVERIES_SHOWN = 5;
export const secretContext = (ruleId: number) => `assay-notify-rule:${ruleId}:secret`;

/** Where a rule sends, without its secret: a URL's origin, or the SMTP server. */
function targetOf(body: NotifyRuleBody, stored: string | null): string | null {
  if (body.channel === "email" && body.email) return `smtp://${body.email.host}:${body.email.port}`;
  if (body.secret === undefined) return stored;
  try {
    return `${new URL(body.secret).origin}/…`;
  } catch {
    return null;
  }
}

function toRule(row: repo.RuleRow, deliveries: repo.DeliveryRow[]): NotifyRule {
  return {
    id: Number(row.id),
    name: row.name,
    channel: row.channel,
    when: row.when_to,
    filters: row.filters,
    isActive: row.is_active,
    email: (row.email as NotifyEmail | null) ?? null,
    hasSecret: row.secret !== null,
    target: row.target,
    source: row.source,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at.toISOString(),
    deliveries: deliveries.map((d) => ({
      runKey: d.run_key,
      runName: d.run_name,
      state: d.state,
      attempts: d.attempts,
      message: d.message,
      at: d.updated_at.toISOString(),
    })),
  };
}

export async function listRules(deps: NotifyDeps): Promise<NotifyRuleList> {
  const [rows, deliveries] = await Promise.all([
    repo.listRules(deps.db.pool),
    repo.latestDeliveries(deps.db.pool, DELIVERIES_SHOWN),
  ]);
  return {
    rules: rows.map((row) =>
      toRule(
        row,
        deliveries.filter((d) => d.rule_id === row.id),
      ),
    ),
  };
}

async function getRule(deps: NotifyDeps, id: number): Promise<NotifyRule> {
  const row = await repo.findRule(deps.db.pool, id);
  if (!row) throw notFound(`No notification rule with id ${id}.`);
  const deliveries = await repo.latestDeliveries(deps.db.pool, DELIVERIES_SHOWN);
  return toRule(
    row,
    deliveries.filter((d) => d.rule_id === row.id),
  );
}

/** Why a body cannot be saved (with or without a stored secret), or undefined. */
function bodyProblem(
  deps: NotifyDeps,
  body: NotifyRuleBody,
  hasStored: boolean,
): string | undefined {
  if (body.channel === "email") {
    if (!body.email)
      return "An email rule needs its SMTP server and recipients (email.host, email.from, email.to).";
    const hostProblem = webhookUrlProblem(`https://${body.email.host}/`, deps.policy);
    return hostProblem?.replace(/webhook's host|webhook URL/g, "SMTP host");
  }
  if (body.email) return "email is only for the email channel.";
  if (body.secret === undefined)
    return hasStored ? undefined : `A ${body.channel} rule needs its webhook URL (secret).`;
  if (body.channel === "slack" && !/^https?:\/\//.test(body.secret))
    return "The Slack webhook URL should look like https://hooks.slack.com/services/…";
  return webhookUrlProblem(body.secret, deps.policy);
}

function toWrite(body: NotifyRuleBody, target: string | null, by: string): repo.RuleWrite {
  return {
    name: body.name,
    channel: body.channel,
    when_to: body.when,
    filters: body.filters,
    email: body.email ?? null,
    target,
    is_active: body.isActive,
    updated_by: by,
  };
}

export async function createRule(deps: NotifyDeps, body: NotifyRuleBody, by: string) {
  const problem = bodyProblem(deps, body, false);
  if (problem) throw badRequest(problem);
  const id = await repo.insertRule(deps.db.pool, toWrite(body, targetOf(body, null), by));
  if (body.secret !== undefined)
    await repo.setSecret(deps.db.pool, id, seal(deps.key, body.secret, secretContext(id)));
  return getRule(deps, id);
}

function editable(row: repo.RuleRow | undefined, id: number): repo.RuleRow {
  if (!row) throw notFound(`No notification rule with id ${id}.`);
  if (row.source === "config")
    throw new AppError(
      409,
      "rule_from_config",
      `The rule "${row.name}" comes from assay.config.yaml: change it there.`,
    );
  return row;
}

export async function updateRule(deps: NotifyDeps, id: number, body: NotifyRuleBody, by: string) {
  const row = editable(await repo.findRule(deps.db.pool, id), id);
  // A channel change needs a new secret: a Slack URL is no SMTP password.
  const keepsSecret = row.secret !== null && row.channel === body.channel;
  const problem = bodyProblem(deps, body, keepsSecret);
  if (problem) throw badRequest(problem);
  await repo.updateRule(deps.db.pool, id, toWrite(body, targetOf(body, row.target), by));
  if (body.secret !== undefined)
    await repo.setSecret(deps.db.pool, id, seal(deps.key, body.secret, secretContext(id)));
  else if (!keepsSecret) await repo.setSecret(deps.db.pool, id, null);
  return getRule(deps, id);
}

export async function archiveRule(deps: NotifyDeps, id: number, by: string) {
  editable(await repo.findRule(deps.db.pool, id), id);
  await repo.archiveRule(deps.db.pool, id, by);
  return { id, archived: true as const };
}

/**
 * Queues the run's deliveries for every active rule that matches it, inside the transaction
 * that stored or finished the run (ingestion's runEnded hook). An upload's are due after
 * `settleSeconds` of quiet (its run may have more shards coming); a finished live run's at once.
 */
export async function enqueueRunDeliveries(
  client: pg.PoolClient,
  runId: number,
  settleSeconds: number,
): Promise<void> {
  await repo.enqueueRun(client, runId, settleSeconds);
}

/** The rule's secret in clear, for a delivery only; undefined when none or unreadable. */
export function openSecret(deps: Pick<NotifyDeps, "key">, row: repo.RuleRow): string | undefined {
  return row.secret ? open(deps.key, row.secret, secretContext(Number(row.id))) : undefined;
}

/**
 * Makes the config file's rules the stored ones (by name) at start; rules removed from the file
 * are archived. A config rule is read-only on the screen.
 */
export async function syncConfigRules(
  deps: NotifyDeps,
  rules: readonly NotifyRuleBody[],
): Promise<void> {
  for (const body of rules) {
    const name = body.name;
    const problem = bodyProblem(deps, body, false);
    if (problem) throw new Error(`assay.config.yaml, notification "${name}": ${problem}`);
    const write = toWrite(body, targetOf(body, null), "assay.config.yaml");
    const existing = await repo.findConfigRule(deps.db.pool, name);
    const id = existing
      ? Number(existing.id)
      : await repo.insertRule(deps.db.pool, write, "config");
    if (existing) await repo.updateRule(deps.db.pool, id, write);
    const sealed =
      body.secret === undefined ? null : seal(deps.key, body.secret, secretContext(id));
    await repo.setSecret(deps.db.pool, id, sealed);
  }
  await repo.archiveConfigRulesExcept(
    deps.db.pool,
    rules.map((rule) => rule.name),
  );
}

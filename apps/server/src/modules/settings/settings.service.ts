import type { BuildTemplate, ScheduleSlot, Setting, SettingBody } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { badRequest, notFound } from "../../errors.js";
import type { Principal } from "../auth/access.js";
import { withoutEmails } from "../auth/people.js";
import { namesByEmail } from "../users/users.service.js";
import * as repo from "./settings.repo.js";
import { maskWebhookUrl, webhookUrlProblem, type WebhookPolicy } from "./webhook-url.js";
import {
  describeSchedule,
  frequencyProblem,
  nextSlots,
  scheduleProblem,
  timeZoneProblem,
} from "./schedule-times.js";

/**
 * Settings rules (spec section 5 "Settings": Name is required and non-empty) and the schedule's
 * own: a cron must be a valid 5-field expression in a known time zone, and a schedule with a cron
 * needs a build template (what it launches). Changes record who made them.
 */

const RECENT_SLOTS = 5;
const noSuchSetting = (id: number) => notFound(`No setting with id ${id}.`);

export function toSlot(row: repo.SlotRow): ScheduleSlot {
  return {
    slotAt: row.slot_at.toISOString(),
    kind: row.kind,
    outcome: row.outcome,
    message: row.message,
    buildId: row.build_id,
    testRunKey: row.test_run_key,
    buildStatus: row.build_status ?? null,
    rerunBuildId: row.rerun_build_id,
    rerunMessage: row.rerun_message,
    notifyState: row.notify_state,
    notifyMessage: row.notify_message,
  };
}

/** Whether the caller sees webhook URLs in full: administrators only (issue 21). */
export function seesWebhooks(principal: Principal | undefined): boolean {
  if (!principal) return false;
  return principal.kind === "user" ? principal.admin : principal.scopes.includes("admin");
}

/**
 * How a reader sees people: signed in, their emails as recorded; signed out (`names` given), the
 * users' names (auth/people.ts), "a user" for an address no longer known.
 */
export type PeopleView = { names: ReadonlyMap<string, string> } | undefined;

function personOf(recorded: string | null, people: PeopleView): string | null {
  if (!people || recorded === null || !recorded.includes("@")) return recorded;
  return people.names.get(recorded) ?? "a user";
}

function templateFor(row: repo.SettingRow, people: PeopleView): Setting["template"] {
  const template = (row.template as Setting["template"]) ?? null;
  return template && people ? { ...template, payload: withoutEmails(template.payload) } : template;
}

export function toSetting(
  row: repo.SettingRow,
  slots: readonly repo.SlotRow[],
  now: Date,
  fullWebhook = false,
  people?: PeopleView,
): Setting {
  const cron = row.cron;
  const url = row.webhook_url;
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    isActive: row.is_active ? 1 : 0,
    cron,
    timeZone: row.time_zone,
    template: templateFor(row, people),
    rerunFailures: row.rerun_failures,
    webhook: url
      ? {
          url: fullWebhook ? url : maskWebhookUrl(url),
          format: row.webhook_format ?? "json",
          masked: !fullWebhook,
        }
      : null,
    scheduleText: cron ? describeSchedule(cron, row.time_zone) : null,
    nextRuns:
      cron && row.is_active
        ? nextSlots(cron, row.time_zone, now, 3).map((d) => d.toISOString())
        : [],
    recentSlots: slots.map(toSlot),
    createdBy: personOf(row.created_by, people),
    updatedBy: personOf(row.updated_by, people),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Users' names by the emails the rows recorded, for a reader who sees names only. */
async function peopleView(db: Db, rows: readonly repo.SettingRow[]): Promise<PeopleView> {
  const emails = rows.flatMap((r) => [r.created_by, r.updated_by]);
  return {
    names: await namesByEmail(
      db.kysely,
      emails.filter((e): e is string => e !== null),
    ),
  };
}

export async function listSettings(
  db: Db,
  fullWebhooks: boolean,
  now = new Date(),
  emails = true,
): Promise<Setting[]> {
  const [rows, slots] = await Promise.all([
    repo.listSettings(db),
    repo.recentSlots(db, RECENT_SLOTS),
  ]);
  const people = emails ? undefined : await peopleView(db, rows);
  const bySetting = new Map<number, repo.SlotRow[]>();
  for (const slot of slots) {
    const list = bySetting.get(Number(slot.setting_id)) ?? [];
    list.push(slot);
    bySetting.set(Number(slot.setting_id), list);
  }
  return rows.map((row) =>
    toSetting(row, bySetting.get(Number(row.id)) ?? [], now, fullWebhooks, people),
  );
}

export async function getSetting(
  db: Db,
  id: number,
  fullWebhook: boolean,
  now = new Date(),
): Promise<Setting> {
  const row = await repo.findSetting(db, id);
  if (!row) throw noSuchSetting(id);
  const slots = (await repo.recentSlots(db, RECENT_SLOTS)).filter(
    (slot) => Number(slot.setting_id) === id,
  );
  return toSetting(row, slots, now, fullWebhook);
}

/** Who saves a setting, and the server's webhook rules. */
export interface SaveContext {
  by: string;
  /** The saver sees webhook URLs in full (an administrator). */
  fullWebhook: boolean;
  webhooks: WebhookPolicy;
  /** The launcher's check of a template by its dialog's rules (throws a 400). */
  checkTemplate?: (template: BuildTemplate) => void;
  /** The shortest gap a schedule may have between two launches (ASSAY_SCHEDULE_MIN_GAP_MINUTES). */
  minIntervalMs: number;
}

/**
 * The webhook columns of a body: left out keeps the stored URL (PUT) — the masked URL a
 * non-administrator was shown is never saved — null removes it, a URL is checked first.
 */
function webhookOf(body: SettingBody, ctx: SaveContext, before?: repo.SettingRow) {
  let url = body.webhookUrl;
  if (url === undefined) url = before?.webhook_url ?? null;
  else if (url !== null) {
    const problem = webhookUrlProblem(url, ctx.webhooks);
    if (problem) throw badRequest(problem);
  }
  const format = body.webhookFormat ?? before?.webhook_format ?? "json";
  return { webhook_url: url, webhook_format: url === null ? null : format };
}

function valuesOf(
  body: SettingBody,
  ctx: SaveContext,
  before?: repo.SettingRow,
): repo.SettingValues {
  const problem =
    body.cron === null
      ? timeZoneProblem(body.timeZone)
      : (scheduleProblem(body.cron, body.timeZone) ??
        frequencyProblem(body.cron, body.timeZone, ctx.minIntervalMs));
  if (problem) throw badRequest(problem);
  if (body.cron !== null && body.template === null) {
    throw badRequest(
      "A schedule with a cron needs a build template (what it launches): give template, or send cron null.",
    );
  }
  // The template is checked by its Create Build dialog's rules when saved, not only at launch.
  if (body.template !== null) ctx.checkTemplate?.(body.template);
  return {
    name: body.name,
    description: body.description,
    is_active: body.isActive === 1,
    cron: body.cron,
    time_zone: body.timeZone,
    template: body.template === null ? null : JSON.stringify(body.template),
    rerun_failures: body.rerunFailures,
    ...webhookOf(body, ctx, before),
  };
}

export async function createSetting(db: Db, body: SettingBody, ctx: SaveContext): Promise<Setting> {
  const id = await repo.insertSetting(db, valuesOf(body, ctx), ctx.by);
  return getSetting(db, id, ctx.fullWebhook);
}

/**
 * Replaces a setting. When its timing changes or it is switched on, slots are looked for from
 * now on: a schedule switched on at 10:00 does not launch (or miss) the 02:00 slot before it.
 */
export async function updateSetting(
  db: Db,
  id: number,
  body: SettingBody,
  ctx: SaveContext,
): Promise<Setting> {
  const before = await repo.findSetting(db, id);
  if (!before) throw noSuchSetting(id);
  const values = valuesOf(body, ctx, before);
  const rescheduled =
    before.cron !== values.cron ||
    before.time_zone !== values.time_zone ||
    (!before.is_active && values.is_active);
  if (!(await repo.updateSetting(db, id, values, ctx.by, rescheduled))) throw noSuchSetting(id);
  return getSetting(db, id, ctx.fullWebhook);
}

/**
 * The spec's delete: the setting leaves the table and stops, archived with its slots' history
 * (the builds it launched stay linked to it); a follow-up of its last build is dropped.
 */
export async function deleteSetting(
  db: Db,
  id: number,
  by: string,
): Promise<{ id: number; deleted: true }> {
  if (!(await repo.archiveSetting(db, id, by))) throw noSuchSetting(id);
  return { id, deleted: true };
}

import { sql, type Selectable } from "kysely";
import type { Db } from "../../db/pool.js";
import type { ScheduleSlotsTable, SettingsTable } from "../../db/schema.js";

/** Settings (schedules) and their slots: the settings and schedule_slots tables (0001, 0030). */

export type SettingRow = Selectable<SettingsTable>;
export type SlotRow = Selectable<ScheduleSlotsTable> & {
  /** The launched build's status, read from builds (recentSlots, findSlot). */
  build_status?: string | null;
};

export interface SettingValues {
  name: string;
  description: string;
  is_active: boolean;
  cron: string | null;
  time_zone: string;
  template: string | null;
  rerun_failures: boolean;
  webhook_url: string | null;
  webhook_format: "slack" | "json" | null;
}

/*
 * A deleted setting is archived (migration 0226): every read of settings sees the live ones
 * only (here and in followup.repo.ts), so an archived one is never listed, edited, run or ticked.
 */

/** Every live setting by name (byte order, so the order does not depend on the server's locale). */
export async function listSettings(db: Db): Promise<SettingRow[]> {
  return db.kysely
    .selectFrom("settings")
    .selectAll()
    .where("archived_at", "is", null)
    .orderBy(sql`name collate "C"`)
    .orderBy("id")
    .execute();
}

export async function findSetting(db: Db, id: number): Promise<SettingRow | undefined> {
  return db.kysely
    .selectFrom("settings")
    .selectAll()
    .where("id", "=", id)
    .where("archived_at", "is", null)
    .executeTakeFirst();
}

export async function insertSetting(db: Db, values: SettingValues, by: string): Promise<number> {
  const row = await db.kysely
    .insertInto("settings")
    .values({ ...values, created_by: by, updated_by: by })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Updates a setting; `rescheduled` moves schedule_from to now, so slots before the change are
 * neither run nor recorded as missed. Returns whether the setting exists.
 */
export async function updateSetting(
  db: Db,
  id: number,
  values: SettingValues,
  by: string,
  rescheduled: boolean,
): Promise<boolean> {
  const result = await db.kysely
    .updateTable("settings")
    .set({
      ...values,
      updated_by: by,
      updated_at: sql`now()`,
      ...(rescheduled ? { schedule_from: sql`now()` } : {}),
    })
    .where("id", "=", id)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Archives a live setting, switched off; false when there is none. Its slots stay. */
export async function archiveSetting(db: Db, id: number, by: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable("settings")
    .set({ archived_at: sql`now()`, archived_by: by, is_active: false })
    .where("id", "=", id)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Active settings with a cron and a template: the ones a tick looks at. */
export async function listDueCandidates(db: Db): Promise<SettingRow[]> {
  return db.kysely
    .selectFrom("settings")
    .selectAll()
    .where("is_active", "=", true)
    .where("archived_at", "is", null)
    .where("cron", "is not", null)
    .execute();
}

/** The latest scheduled slot of a setting: slots up to it were all claimed already. */
export async function latestScheduledSlot(db: Db, settingId: number): Promise<Date | undefined> {
  const row = await db.kysely
    .selectFrom("schedule_slots")
    .select("slot_at")
    .where("setting_id", "=", settingId)
    .where("kind", "=", "scheduled")
    .orderBy("slot_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.slot_at;
}

/**
 * Claims a slot: true for the one server whose insert made the row, false for every other (the
 * unique (setting_id, slot_at) decides). A missed slot is claimed already recorded as missed.
 */
export async function claimSlot(
  db: Db,
  slot: {
    settingId: number;
    slotAt: Date;
    kind: "scheduled" | "manual";
    claimedBy: string;
    outcome?: "missed";
    message?: string;
  },
): Promise<number | undefined> {
  const row = await db.kysely
    .insertInto("schedule_slots")
    .values({
      setting_id: slot.settingId,
      slot_at: slot.slotAt,
      kind: slot.kind,
      claimed_by: slot.claimedBy,
      outcome: slot.outcome ?? null,
      message: slot.message ?? null,
    })
    .onConflict((oc) => oc.columns(["setting_id", "slot_at"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/**
 * Slots claimed but never launched by a server no longer live (it died between its claim and
 * the launch), claimed no longer ago than `withinMs`, oldest first.
 */
export async function orphanSlots(
  db: Db,
  live: readonly string[],
  withinMs: number,
): Promise<{ id: number; setting_id: number; claimed_by: string }[]> {
  const rows = await db.kysely
    .selectFrom("schedule_slots")
    .select(["id", "setting_id", "claimed_by"])
    .where("outcome", "is", null)
    .where("claimed_by", "not in", live.length > 0 ? [...live] : [""])
    .where("claimed_at", ">", sql<Date>`now() - ${withinMs} * interval '1 millisecond'`)
    .orderBy("claimed_at")
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), setting_id: Number(row.setting_id) }));
}

/** Takes a dead claimer's slot for this server, once across servers (its claimer unchanged). */
export async function takeSlot(db: Db, id: number, from: string, to: string): Promise<boolean> {
  const row = await db.kysely
    .updateTable("schedule_slots")
    .set({ claimed_by: to })
    .where("id", "=", id)
    .where("claimed_by", "=", from)
    .where("outcome", "is", null)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function recordOutcome(
  db: Db,
  slotId: number,
  outcome: {
    outcome: "launched" | "failed" | "unavailable";
    message: string | null;
    buildId?: string;
    testRunKey?: string;
  },
): Promise<void> {
  await db.kysely
    .updateTable("schedule_slots")
    .set({
      outcome: outcome.outcome,
      message: outcome.message,
      build_id: outcome.buildId ?? null,
      test_run_key: outcome.testRunKey ?? null,
    })
    .where("id", "=", slotId)
    .execute();
}

/*
 * A slot's build status is read from builds (owned by the builds module) by the build's id;
 * build_id is text, and only a number names a build there.
 */
const BUILD_STATUS = sql`(SELECT b.build_status FROM builds b
  WHERE b.id = CASE WHEN s.build_id ~ '^[0-9]{1,18}$' THEN s.build_id::bigint END)`;

/** The latest `perSetting` slots of each setting, newest first, with their build's status. */
export async function recentSlots(db: Db, perSetting: number): Promise<SlotRow[]> {
  const { rows } = await sql<SlotRow>`
    SELECT s.*, ${BUILD_STATUS} AS build_status FROM settings st
    CROSS JOIN LATERAL (
      SELECT * FROM schedule_slots WHERE setting_id = st.id ORDER BY slot_at DESC LIMIT ${perSetting}
    ) s
    WHERE st.archived_at IS NULL`.execute(db.kysely);
  return rows;
}

export async function findSlot(db: Db, id: number): Promise<SlotRow | undefined> {
  const { rows } = await sql<SlotRow>`
    SELECT s.*, ${BUILD_STATUS} AS build_status FROM schedule_slots s WHERE s.id = ${id}`.execute(
    db.kysely,
  );
  return rows[0];
}

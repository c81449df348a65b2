import type { Db } from "../../db/pool.js";
import type { SettingRow, SlotRow } from "./settings.repo.js";

/**
 * The schedule_slots writes after a slot's build ends. Each step is claimed by a conditional
 * UPDATE, so with several servers (or a retried job) the rerun is launched once and the summary
 * queued once.
 */

export interface SlotOfBuild {
  slot: SlotRow;
  setting: SettingRow;
  /** Whether the build is the slot's automatic rerun (else its first build). */
  isRerun: boolean;
}

/** The slot of an ended build, of a live setting: a deleted (archived, 0226) one's is not rerun. */
export async function slotOfBuild(db: Db, buildId: string): Promise<SlotOfBuild | undefined> {
  const slot = await db.kysely
    .selectFrom("schedule_slots")
    .selectAll()
    .where((eb) => eb.or([eb("build_id", "=", buildId), eb("rerun_build_id", "=", buildId)]))
    .executeTakeFirst();
  if (!slot) return undefined;
  const setting = await db.kysely
    .selectFrom("settings")
    .selectAll()
    .where("id", "=", slot.setting_id)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  return setting && { slot, setting, isRerun: slot.rerun_build_id === buildId };
}

/** True for the one caller that marks the slot's first build as handled. */
export async function claimFollowUp(db: Db, slotId: number): Promise<boolean> {
  const result = await db.kysely
    .updateTable("schedule_slots")
    .set({ followed_up: true })
    .where("id", "=", slotId)
    .where("followed_up", "=", false)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function recordRerun(
  db: Db,
  slotId: number,
  rerun: { buildId: string | null; message: string | null },
): Promise<void> {
  await db.kysely
    .updateTable("schedule_slots")
    .set({ rerun_build_id: rerun.buildId, rerun_message: rerun.message })
    .where("id", "=", slotId)
    .execute();
}

/** True for the one caller that queues the slot's summary. */
export async function claimNotify(db: Db, slotId: number): Promise<boolean> {
  const result = await db.kysely
    .updateTable("schedule_slots")
    .set({ notify_state: "pending" })
    .where("id", "=", slotId)
    .where("notify_state", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Counts a delivery attempt and records how it went; returns the attempts so far. */
export async function recordDelivery(
  db: Db,
  slotId: number,
  state: "pending" | "delivered" | "failed",
  message: string | null,
): Promise<number> {
  const row = await db.kysely
    .updateTable("schedule_slots")
    .set((eb) => ({
      notify_state: state,
      notify_message: message,
      notify_attempts: eb("notify_attempts", "+", 1),
    }))
    .where("id", "=", slotId)
    .returning("notify_attempts")
    .executeTakeFirst();
  return row?.notify_attempts ?? 0;
}

/** A slot and its setting, archived or not (deliverSummary says why it sends nothing). */
export async function slotWithSetting(
  db: Db,
  slotId: number,
): Promise<{ slot: SlotRow; setting: SettingRow } | undefined> {
  const slot = await db.kysely
    .selectFrom("schedule_slots")
    .selectAll()
    .where("id", "=", slotId)
    .executeTakeFirst();
  if (!slot) return undefined;
  const setting = await db.kysely
    .selectFrom("settings")
    .selectAll()
    .where("id", "=", slot.setting_id)
    .executeTakeFirst();
  return setting && { slot, setting };
}

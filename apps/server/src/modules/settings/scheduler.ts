import { BuildTemplateSchema } from "@assay/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { BuildsUnavailable, type BuildLauncher, type LaunchedBy } from "./build-launcher.js";
import * as repo from "./settings.repo.js";
import { slotsBetween } from "./schedule-times.js";

/*
 * Exactly once across servers: every server's tick (a pg-boss schedule, each minute) computes
 * the slots each active schedule had since its last claimed one, and claims each with a unique
 * (setting_id, slot_at) row. Only the server whose insert made the row launches the build. A slot
 * found later than the catch-up window (every server was down) is recorded as missed instead.
 */

export interface SchedulerDeps {
  db: Db;
  launcher: BuildLauncher;
  /** The daily robot's executor name (catalog.dailyRuns.executor): scheduled builds run as it. */
  executorName: string;
  /** How late a slot may still be launched (ASSAY_SCHEDULE_CATCH_UP_MINUTES). */
  catchUpMs: number;
  /** The shortest gap between a schedule's launches (ASSAY_SCHEDULE_MIN_GAP_MINUTES). */
  minIntervalMs: number;
  /** Who claims, recorded with each slot: this server process's id in the servers table. */
  readonly serverId: string;
  log: FastifyBaseLogger;
}

/** Slots further back than this are not looked for at all (a week of downtime at most). */
const LOOKBACK_MS = 7 * 86_400_000;
/** Per schedule and tick: a cron every minute after a long stop does not write thousands of rows. */
const MAX_SLOTS_PER_TICK = 100;

export interface TickReport {
  launched: number;
  missed: number;
  /** Slots another server had claimed first. */
  lost: number;
}

/** Launches the claimed slot `slotId` and records how it went; answers the launch's error. */
async function launchSlot(
  deps: SchedulerDeps,
  setting: repo.SettingRow,
  slotId: number,
  by?: LaunchedBy,
): Promise<unknown> {
  const template = BuildTemplateSchema.safeParse(setting.template);
  if (!template.success) {
    await repo.recordOutcome(deps.db, slotId, {
      outcome: "failed",
      message: "This schedule has no build template: edit it to choose what it launches.",
    });
    return undefined;
  }
  try {
    const build = await deps.launcher.launch(template.data, deps.executorName, by);
    await repo.recordOutcome(deps.db, slotId, {
      outcome: "launched",
      message: null,
      buildId: build.buildId,
      testRunKey: build.testRunKey,
    });
  } catch (error) {
    const unavailable = error instanceof BuildsUnavailable;
    if (!unavailable)
      deps.log.warn({ err: error, settingId: setting.id }, "schedule: launch failed");
    await repo.recordOutcome(deps.db, slotId, {
      outcome: unavailable ? "unavailable" : "failed",
      message: (error as Error).message,
    });
    return error;
  }
  return undefined;
}

/** One tick at `now`: every due slot of every active schedule, claimed and launched once. */
export async function runDueSlots(deps: SchedulerDeps, now: Date): Promise<TickReport> {
  const report: TickReport = { launched: 0, missed: 0, lost: 0 };
  for (const setting of await repo.listDueCandidates(deps.db)) {
    if (!setting.cron) continue;
    const last = await repo.latestScheduledSlot(deps.db, setting.id);
    const from = Math.max(
      setting.schedule_from.getTime(),
      last?.getTime() ?? 0,
      now.getTime() - LOOKBACK_MS,
    );
    const slots = slotsBetween(
      setting.cron,
      setting.time_zone,
      new Date(from),
      now,
      MAX_SLOTS_PER_TICK,
    );
    for (const slotAt of slots) {
      const late = now.getTime() - slotAt.getTime() > deps.catchUpMs;
      const slotId = await repo.claimSlot(deps.db, {
        settingId: setting.id,
        slotAt,
        kind: "scheduled",
        claimedBy: deps.serverId,
        ...(late
          ? {
              outcome: "missed" as const,
              message: `No Assay server was running at this time, and it was found more than ${Math.round(deps.catchUpMs / 60_000)} minutes late.`,
            }
          : {}),
      });
      if (slotId === undefined) report.lost++;
      else if (late) report.missed++;
      else {
        await launchSlot(deps, setting, slotId);
        report.launched++;
      }
    }
  }
  return report;
}

/**
 * 'Run now': a manual slot at `now`, launched at once as `by`'s build (their build limit applies:
 * a refusal for it is answered as it is, 429); undefined when there is no such setting.
 */
export async function runNow(
  deps: SchedulerDeps,
  settingId: number,
  now: Date,
  by: LaunchedBy,
): Promise<repo.SlotRow | undefined> {
  const setting = await repo.findSetting(deps.db, settingId);
  if (!setting) return undefined;
  // Said at once, not recorded as a failed launch the person has to look for in the row.
  if (!BuildTemplateSchema.safeParse(setting.template).success) {
    throw new AppError(
      409,
      "no_build",
      `“${setting.name}” has no build to run: edit it and choose its build first.`,
    );
  }
  const slotId = await repo.claimSlot(deps.db, {
    settingId,
    slotAt: now,
    kind: "manual",
    claimedBy: deps.serverId,
  });
  if (slotId === undefined) return undefined;
  const error = await launchSlot(deps, setting, slotId, by);
  if ((error as { statusCode?: number } | undefined)?.statusCode === 429) throw error;
  return repo.findSlot(deps.db, slotId);
}

/**
 * Slots a server claimed and died before launching (its lease ran out): launched by this server,
 * each once across servers. Only slots claimed within the catch-up window: an older one would
 * launch a build nobody expects any more.
 */
export async function launchOrphanSlots(
  deps: SchedulerDeps,
  live: ReadonlySet<string>,
): Promise<number> {
  let launched = 0;
  for (const slot of await repo.orphanSlots(deps.db, [...live], deps.catchUpMs)) {
    if (!(await repo.takeSlot(deps.db, slot.id, slot.claimed_by, deps.serverId))) continue;
    const setting = await repo.findSetting(deps.db, slot.setting_id);
    if (!setting) continue;
    deps.log.info(
      { slotId: slot.id, from: slot.claimed_by },
      "schedules: launching a dead server's slot",
    );
    await launchSlot(deps, setting, slot.id);
    launched++;
  }
  return launched;
}

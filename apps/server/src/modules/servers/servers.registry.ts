import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { isProcessAlive } from "../../process-alive.js";
import * as repo from "./servers.repo.js";

/** Ended servers are kept this long for the record (who ran what), then forgotten. */
const FORGET_AFTER_MS = 7 * 86_400_000;

export interface RegistryDeps {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** A server is dead to the others this long after its last renewal. */
  leaseMs: number;
  /** How often the lease is renewed and dead servers' work looked for. */
  heartbeatMs: number;
  /** The data folder: with the host, what makes a restart "the same server". */
  dataDir: string;
  host?: string;
  pid?: number;
  /** Whether a process of this host is alive (tests replace it). */
  isAlive?: (pid: number) => boolean;
}

/**
 * Told the servers whose lease still runs, after each renewal: each module takes over the work
 * of owners not among them (their lease ran out, or they never registered).
 */
export type Sweeper = (live: ReadonlySet<string>) => Promise<void>;

/**
 * This server process in the servers table: it registers at start, renews its lease every
 * heartbeat and, after each renewal, lets each module take over the jobs of dead servers. A
 * restart on the same host and data folder ends its dead predecessor's lease at once, so its
 * jobs are recovered without waiting for the lease to run out. A server that finds its own lease
 * gone (it was paused past it, and others may have taken its jobs) drops what it ran and
 * registers again under a new id.
 */
export class ServerRegistry {
  private current = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private readonly sweepers: Sweeper[] = [];
  private readonly lostHandlers: (() => void)[] = [];
  private ticking: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly deps: RegistryDeps) {}

  /** This server process's id in the servers table (jobs it owns carry it). */
  get id(): string {
    return this.current;
  }

  get host(): string {
    return this.deps.host ?? hostname();
  }

  /** Whether a server's lease still runs (by the database's clock); this server always is. */
  async isLive(id: string): Promise<boolean> {
    if (id === this.current) return true;
    return (await repo.liveServerIds(this.deps.db)).includes(id);
  }

  /** Runs after every renewal: takes over dead servers' work of one kind. */
  onSweep(sweeper: Sweeper): void {
    this.sweepers.push(sweeper);
  }

  /** Runs when this server finds that its lease ran out: whatever it runs is no longer its own. */
  onLeaseLost(handler: () => void): void {
    this.lostHandlers.push(handler);
  }

  async start(): Promise<void> {
    await this.register();
    await repo.forgetEnded(this.deps.db, FORGET_AFTER_MS);
    await this.sweep();
    this.timer = setInterval(() => void this.tick(), this.deps.heartbeatMs);
    this.timer.unref();
  }

  private async register(): Promise<void> {
    const pid = this.deps.pid ?? process.pid;
    await repo.register(
      this.deps.db,
      { id: this.current, host: this.host, pid, dataDir: this.deps.dataDir },
      this.deps.leaseMs,
    );
    // A restart of this server: the previous process on this host and folder is gone, so its
    // lease ends now and this server recovers its jobs in its first sweep.
    const alive = this.deps.isAlive ?? isProcessAlive;
    const predecessors = await repo.sameHostServers(
      this.deps.db,
      this.host,
      this.deps.dataDir,
      this.current,
    );
    await repo.endLease(
      this.deps.db,
      predecessors.filter((server) => server.pid !== pid && !alive(server.pid)).map((s) => s.id),
    );
  }

  /** One heartbeat: renew (or, lost, start over under a new id), then the sweeps. */
  async tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      try {
        if (!(await repo.renew(this.deps.db, this.current, this.deps.leaseMs))) {
          if (this.closed) return;
          this.deps.log.warn(
            { server: this.current },
            "servers: this server's lease ran out (paused or cut off); its jobs are left to others and it registers again",
          );
          for (const handler of this.lostHandlers) handler();
          this.current = randomUUID();
          await this.register();
        }
        await this.sweep();
      } catch (error) {
        this.deps.log.warn({ err: error }, "servers: lease renewal failed; retrying next beat");
      } finally {
        this.ticking = undefined;
      }
    })();
    return this.ticking;
  }

  /** Lets each module take over the jobs of servers whose lease is not running. */
  async sweep(): Promise<void> {
    const live = new Set(await repo.liveServerIds(this.deps.db));
    live.add(this.current);
    for (const sweeper of this.sweepers) {
      try {
        await sweeper(live);
      } catch (error) {
        this.deps.log.warn({ err: error }, "servers: taking over a dead server's work failed");
      }
    }
  }

  /** A clean stop: the lease ends now, so another server takes over at its next beat. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.ticking;
    await repo.endLease(this.deps.db, [this.current]).catch(() => undefined);
  }
}

import type pg from "pg";
import { reserveResultIdBlocks } from "./results.repo.js";

/** results.id's sequence steps by this much (migration 0006): each nextval reserves a block. */
export const RESULT_ID_BLOCK = 1000;

/**
 * Blocks reserved by the first query of an upload; each later query reserves twice as many as
 * the one before, so a 100k-result upload asks four times (each ends the writer's open COPY).
 */
const FIRST_BLOCKS_PER_QUERY = 10;

/**
 * Hands out result ids from reserved blocks, so that 10,000 results cost one query of ten nextval
 * calls instead of 10,000 calls. Ids keep increasing within an upload (report order); a
 * concurrent upload's blocks may interleave with this one's.
 */
export class ResultIds {
  private next = 0;
  private end = 0;
  private readonly blocks: number[] = [];
  /** The blocks handed out, in order: each is used up before the next starts. */
  private readonly used: number[] = [];
  private blocksPerQuery = FIRST_BLOCKS_PER_QUERY;
  private taken = 0;

  private available(): number {
    return this.end - this.next + this.blocks.length * RESULT_ID_BLOCK;
  }

  /** Whether take(count) must query the sequence. */
  needsQuery(count: number): boolean {
    return count > this.available();
  }

  async take(client: pg.PoolClient, count: number): Promise<number[]> {
    const available = this.available();
    if (count > available) {
      const blocks = Math.max(
        this.blocksPerQuery,
        Math.ceil((count - available) / RESULT_ID_BLOCK),
      );
      this.blocksPerQuery *= 2;
      this.blocks.push(...(await reserveResultIdBlocks(client, blocks)));
    }
    const ids = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      if (this.next === this.end) {
        this.next = this.blocks.shift()!;
        this.used.push(this.next);
        this.end = this.next + RESULT_ID_BLOCK;
      }
      ids[i] = this.next++;
    }
    this.taken += count;
    return ids;
  }

  /** The id of the result at `position` in the order ids were taken (0 = the first). */
  idAt(position: number): number {
    if (!(position >= 0 && position < this.taken)) {
      throw new Error(`no result id taken at ${position}`);
    }
    return this.used[Math.floor(position / RESULT_ID_BLOCK)]! + (position % RESULT_ID_BLOCK);
  }
}

import { once } from "node:events";
import { finished } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import type pg from "pg";

type CopyStream = ReturnType<typeof copyFrom>;

/**
 * One COPY ... FROM STDIN kept open across the batches of an upload. Rows are handed to the
 * connection as soon as their batch is ready, and PostgreSQL stores them while the next batch is
 * parsed; a COPY per batch made PostgreSQL wait, twice a batch, for the server's event loop to
 * read its answer and start the next one.
 *
 * The connection can run nothing else while the COPY is open: end() it before any other
 * statement (it is opened again on the next write). Backpressure is the socket's: write()
 * resolves once the connection has taken the data, not once PostgreSQL has stored it.
 */
export class OpenCopy {
  private stream: CopyStream | undefined;
  /** Settles when the open COPY completes; rejects with PostgreSQL's error if it fails. */
  private done: Promise<void> = Promise.resolve();
  /** PostgreSQL refused the open COPY: nothing more may be sent on it (the library drops it). */
  private failed = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statement: string,
  ) {}

  async write(chunks: Iterable<Buffer>): Promise<void> {
    if (!this.stream) {
      this.stream = this.client.query(copyFrom(this.statement));
      this.failed = false;
      this.done = finished(this.stream);
      // Read by the next write, end() or abort(); never left unhandled meanwhile.
      this.done.catch(() => {
        this.failed = true;
      });
    }
    const stream = this.stream;
    for (const chunk of chunks) {
      if (this.failed) return this.done;
      if (!stream.write(chunk)) await Promise.race([once(stream, "drain"), this.done]);
    }
  }

  /** Completes the open COPY, if any: every row written is then stored (or the error thrown). */
  async end(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    this.stream = undefined;
    if (!this.failed) stream.end();
    await this.done;
  }

  /**
   * Abandons the open COPY, if any (PostgreSQL gets CopyFail and stores none of it), so that the
   * caller's ROLLBACK can run.
   */
  async abort(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    this.stream = undefined;
    if (!this.failed) stream.destroy(new Error("the upload was abandoned"));
    await this.done.catch(() => undefined);
  }
}

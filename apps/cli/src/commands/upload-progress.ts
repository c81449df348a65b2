/**
 * `assay upload`'s progress on a terminal: the bytes sent, then the seconds the server has been
 * reading the reports and storing the run (it answers once the run is committed). Nothing is
 * written unless stderr is a terminal and CI is unset, so CI logs keep only the outcome.
 */

interface Terminal {
  isTTY?: boolean;
  write(text: string): unknown;
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
/** Redraws at most this often: a fast upload would otherwise write a line per chunk. */
const REDRAW_MS = 100;

export class UploadProgress {
  #lastDraw = 0;
  #sentAt: number | undefined;
  #timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly total: number,
    private readonly out: Terminal,
    private readonly now: () => number,
  ) {}

  /** A progress line for `total` bytes, or undefined off a terminal or in CI. */
  static forTerminal(
    total: number,
    out: Terminal = process.stderr,
    env: NodeJS.ProcessEnv = process.env,
    now: () => number = Date.now,
  ): UploadProgress | undefined {
    if (!out.isTTY || env.CI) return undefined;
    return new UploadProgress(total, out, now);
  }

  /** Bytes sent so far (sendStream's onProgress). */
  sent(bytes: number): void {
    if (bytes >= this.total) {
      if (this.#sentAt === undefined) this.#serverPhase();
      return;
    }
    const at = this.now();
    if (at - this.#lastDraw < REDRAW_MS) return;
    this.#lastDraw = at;
    const percent = Math.floor((bytes / this.total) * 100);
    this.#draw(`Sending ${mib(bytes)} of ${mib(this.total)} (${percent}%)`);
  }

  /** The answer came (or the attempt failed): the line is cleared for what follows. */
  done(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.out.write("\r\x1b[K");
  }

  #serverPhase(): void {
    this.#sentAt = this.now();
    const draw = () => {
      const seconds = Math.floor((this.now() - (this.#sentAt ?? 0)) / 1000);
      this.#draw(
        `Sent ${mib(this.total)}; the server is reading the reports and storing the run (${seconds} s)`,
      );
    };
    draw();
    this.#timer = setInterval(draw, 1000);
    this.#timer.unref();
  }

  #draw(text: string): void {
    this.out.write(`\r\x1b[K${text}`);
  }
}

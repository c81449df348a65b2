import { step } from "./output.js";

/**
 * What the bench must undo whatever happens: processes it started (by PID), databases and
 * temporary folders it made. Undone in reverse order; one failing task does not stop the others.
 */
export class Cleanup {
  private readonly tasks: { label: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  add(label: string, run: () => Promise<void>): () => void {
    const task = { label, run };
    this.tasks.push(task);
    return () => {
      const index = this.tasks.indexOf(task);
      if (index >= 0) this.tasks.splice(index, 1);
    };
  }

  /** Runs every pending task once; later calls wait for the same run. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const task of this.tasks.splice(0).reverse()) {
        try {
          await task.run();
        } catch (error) {
          step(`cleanup: ${task.label} failed: ${(error as Error).message}`);
        }
      }
    })();
    return this.running;
  }
}

/** Resolves after `ms`, or rejects with a message naming what took too long. */
export async function withTimeout<T>(label: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

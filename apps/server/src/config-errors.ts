/** The errors a start can end with; the CLI prints their message without a stack trace. */

/** Thrown when the configuration is unusable; `problems` has one line per bad setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Assay cannot start: the configuration is invalid.\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

/**
 * Thrown when the server cannot start with what it was given (a secret key that does not open
 * the database's sealed keys, an unreadable key file): the message is one line saying what to
 * do, and the CLI prints it without a stack trace.
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartRefused";
  }
}

import type { z } from "zod";

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

/** "VARIABLE: what was expected, got "value"" for each issue of a parsed environment. */
export function envProblems(error: z.ZodError, env: NodeJS.ProcessEnv): string[] {
  return error.issues.map((issue) => {
    const key = String(issue.path[0]);
    return `${key}: ${issue.message}, got ${JSON.stringify(env[key])}`;
  });
}

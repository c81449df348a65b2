/**
 * A failure the user can act on: printed as one line, exit code 1. Anything else is unexpected
 * and exits with 2 (STYLE.md rule 5).
 */
export class KnownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KnownError";
  }
}

/**
 * Something the user cannot fix from here, known well enough to say in one line (the server
 * failed, or answered what the CLI does not understand): one line, exit code 2.
 */
export class UnexpectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnexpectedError";
  }
}

/** Turns common start-up failures into one line that says what to do. */
export function explainStartError(error: unknown, port: number): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") {
    return `port ${port} is already in use; stop the other program or set PORT to another port.`;
  }
  if (code === "EACCES") return `not allowed to listen on port ${port}; set PORT above 1024.`;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
    return `cannot reach the PostgreSQL in DATABASE_URL (${code}); check the host and port.`;
  }
  if (code === "28P01" || code === "3D000") {
    return `PostgreSQL refused DATABASE_URL: ${(error as Error).message}.`;
  }
  return undefined;
}

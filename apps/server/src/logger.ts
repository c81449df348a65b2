import { pino, type Logger } from "pino";
import type { Config } from "./config.js";

/**
 * The process logger: JSON lines on stdout. Credentials are redacted wherever a serializer might
 * include them, so a secret never reaches a log line.
 */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        'res.headers["set-cookie"]',
        "*.password",
        "*.token",
        "*.secret",
      ],
      censor: "[redacted]",
    },
  });
}

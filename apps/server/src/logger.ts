import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { pino, type Logger } from "pino";
import type { Config } from "./config.js";

/**
 * Paths whose query carries a credential: the sign-in callback's code and state, and the one-time
 * code a data-harmonization host exchanges for a session (modules/auth/handoff).
 */
const SECRET_QUERY_PATHS = new Set(["/auth/callback", "/auth/handoff"]);

/** A request's URL for the log: the query of SECRET_QUERY_PATHS replaced by "[redacted]". */
export function loggedUrl(url: string): string {
  const query = url.indexOf("?");
  if (query === -1) return url;
  return SECRET_QUERY_PATHS.has(url.slice(0, query)) ? `${url.slice(0, query)}?[redacted]` : url;
}

/**
 * Fastify's request serializer with loggedUrl: the sign-in code would otherwise be written by
 * every "incoming request" line (issue 33).
 */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The app's logger: `logger` with requestSerializer (its serializers win over Fastify's own). */
export function appLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { serializers: { req: requestSerializer } });
}

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

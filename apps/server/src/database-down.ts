/**
 * Whether an error means PostgreSQL cannot be reached right now (down, restarting, shutting
 * down, out of connections), as opposed to a bug: such a request is answered 503
 * database_unavailable, which a client may retry, and the pool reconnects by itself once the
 * database is back.
 */
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH"]);
// 08: connection exception; 57P01-57P03: admin / crash shutdown, cannot connect now;
// 53300: too many connections.
const SQLSTATE = /^(08...|57P0[123]|53300)$/;
const MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended unexpectedly",
];

export function isDatabaseDown(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (NODE_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === "string" && MESSAGES.some((m) => message.includes(m))) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseDown(inner))) return true;
  }
  return false;
}

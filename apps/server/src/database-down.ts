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

/**
 * Whether PostgreSQL refused a write for want of disk space (SQLSTATE 53100 disk_full: "could
 * not extend file ...: No space left on device"). Its transaction is rolled back, so nothing of
 * the request is stored, and reads go on working: the request is answered 507 database_full, a
 * client may retry once space is freed. (A full WAL disk is different: PostgreSQL stops, and
 * requests get 503 database_unavailable until it is back.)
 */
export function isDatabaseFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "53100") return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseFull(inner))) return true;
  }
  return false;
}

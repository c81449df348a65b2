import { ErrorBodySchema } from "@assay/core";

/** Spec section 9: a call may take up to 4,500,000 ms before the page gives up on it. */
export const HTTP_TIMEOUT_MS = 4_500_000;

/** Anything with a zod-like `parse`: responses are checked against the schemas of @assay/core. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

/** A failed call, carrying the server's stable `code` and its message for a person. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
    this.code = code;
  }
}

/** GETs a JSON resource of the Assay server and parses it; every failure becomes an ApiError. */
export async function getJson<T>(
  path: string,
  parser: ResponseParser<T>,
  signal?: AbortSignal,
): Promise<T> {
  const response = await send(path, {
    method: "GET",
    headers: { Accept: "application/json" },
    signal: withTimeout(signal),
  });
  const body = await readJson(response);
  if (!response.ok) throw toApiError(response, body);
  try {
    return parser.parse(body);
  } catch (cause) {
    throw new ApiError(
      response.status,
      "invalid_response",
      `The server's answer to ${path} is not in the expected shape.`,
      { cause },
    );
  }
}

// The signed-in session's CSRF token: changes made with the session cookie must carry it in
// x-csrf-token (the server's Origin + synchronizer-token check). Read from GET /v1/me.
let csrfToken: string | null = null;

/** Remembers the CSRF token GET /v1/me returned (null: forget it, e.g. after signing out). */
export function rememberCsrfToken(token: string | null): void {
  csrfToken = token;
}

async function currentCsrfToken(): Promise<string | null> {
  if (csrfToken !== null) return csrfToken;
  const response = await send("/v1/me", {
    method: "GET",
    headers: { Accept: "application/json" },
    signal: withTimeout(undefined),
  });
  // Signed out: the change goes without a token and the server answers 401, which is the truth.
  if (!response.ok) return null;
  const body = (await readJson(response)) as { csrf_token?: unknown } | undefined;
  csrfToken = typeof body?.csrf_token === "string" ? body.csrf_token : null;
  return csrfToken;
}

async function sendChange(method: string, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  // No Content-Type without a body: the server refuses an empty body declared as JSON.
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = await currentCsrfToken();
  if (token !== null) headers["X-CSRF-Token"] = token;
  return send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: withTimeout(undefined),
  });
}

/**
 * Sends a change (POST, PUT, DELETE) to the Assay server with an optional JSON body and parses
 * the JSON answer; every failure becomes an ApiError carrying the server's code and message.
 * The session's CSRF token goes with it; a token refused as stale (signed in again in another
 * tab) is read afresh and the change sent once more.
 */
export async function sendJson<T>(
  method: "POST" | "PUT" | "DELETE",
  path: string,
  body: unknown,
  parser: ResponseParser<T>,
): Promise<T> {
  let response = await sendChange(method, path, body);
  let answer = await readJson(response);
  if (response.status === 403 && toApiError(response, answer).code === "csrf_refused") {
    csrfToken = null;
    response = await sendChange(method, path, body);
    answer = await readJson(response);
  }
  if (!response.ok) throw toApiError(response, answer);
  try {
    return parser.parse(answer);
  } catch (cause) {
    throw new ApiError(
      response.status,
      "invalid_response",
      `The server's answer to ${method} ${path} is not in the expected shape.`,
      { cause },
    );
  }
}

/**
 * PUTs a file as the request body (its own Content-Type, no JSON), such as a profile picture,
 * with the session's CSRF token, and parses the JSON answer.
 */
export async function putFile<T>(path: string, file: Blob, parser: ResponseParser<T>): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", "Content-Type": file.type };
  const token = await currentCsrfToken();
  if (token !== null) headers["X-CSRF-Token"] = token;
  const response = await send(path, {
    method: "PUT",
    headers,
    body: file,
    signal: withTimeout(undefined),
  });
  const answer = await readJson(response);
  if (!response.ok) throw toApiError(response, answer);
  return parser.parse(answer);
}

/** The start of a text resource: at most `maxBytes` of it, decoded as UTF-8. */
export interface TextStart {
  text: string;
  /** Bytes read: fewer than the resource holds when it was cut at maxBytes. */
  bytes: number;
}

/**
 * GETs the first `maxBytes` of a text resource (a stored attachment) and stops reading there, so
 * a large log is not downloaded whole to show its start. A character cut in half at the limit is
 * left out rather than shown broken.
 */
export async function getTextStart(
  path: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<TextStart> {
  const response = await send(path, { method: "GET", signal: withTimeout(signal) });
  if (!response.ok) throw toApiError(response, await readJson(response));
  const decoder = new TextDecoder("utf-8");
  let text = "";
  let bytes = 0;
  const reader = response.body?.getReader();
  if (!reader) return { text: "", bytes: 0 };
  while (bytes < maxBytes) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), bytes };
    const chunk = value.subarray(0, maxBytes - bytes);
    bytes += chunk.length;
    text += decoder.decode(chunk, { stream: true });
  }
  await reader.cancel();
  return { text, bytes };
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (cause) {
    if (isTimeout(cause)) {
      throw new ApiError(0, "timeout", `The server did not answer ${path} in time.`, { cause });
    }
    // A cancelled query is not a failure: TanStack Query expects the abort to come through as is.
    if (init.signal?.aborted) throw cause;
    throw new ApiError(0, "network_error", "Could not reach the Assay server.", { cause });
  }
}

function withTimeout(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === "TimeoutError";
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(response: Response, body: unknown): ApiError {
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    return new ApiError(response.status, parsed.data.error.code, parsed.data.error.message);
  }
  // Not the server's error body (a proxy or gateway answered): say only what is known.
  const statusText = response.statusText ? ` ${response.statusText}` : "";
  return new ApiError(
    response.status,
    "http_error",
    `The server answered ${response.status}${statusText}.`,
  );
}

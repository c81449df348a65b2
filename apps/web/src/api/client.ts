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

import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./client";

/** The app's QueryClient: transient failures are retried, answers the server gave are not. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: shouldRetry } } });
}

function shouldRetry(failureCount: number, error: Error): boolean {
  // A 4xx or a malformed answer would only be repeated: show it at once instead.
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  if (error instanceof ApiError && error.code === "invalid_response") return false;
  return failureCount < 2;
}

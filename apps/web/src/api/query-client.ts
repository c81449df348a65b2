import { MutationCache, QueryCache, QueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError } from "./client";
import { queryKeys } from "./query-keys";
import { goToSignIn } from "./sign-in";

/**
 * The app's QueryClient: transient failures are retried, answers the server gave are not. A 401
 * means the session is gone (or this Assay needs sign-in to read): the user is sent to sign in
 * and brought back. GET /v1/me is the exception: its 401 just means signed out.
 */
export function createQueryClient(onUnauthorized: () => void = goToSignIn): QueryClient {
  const handle = (error: Error, key?: QueryKey) => {
    if (!(error instanceof ApiError) || error.status !== 401) return;
    if (key?.[0] === queryKeys.me[0]) return;
    onUnauthorized();
  };
  return new QueryClient({
    defaultOptions: { queries: { retry: shouldRetry } },
    queryCache: new QueryCache({ onError: (error, query) => handle(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => handle(error) }),
  });
}

function shouldRetry(failureCount: number, error: Error): boolean {
  // A 4xx or a malformed answer would only be repeated: show it at once instead.
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  if (error instanceof ApiError && error.code === "invalid_response") return false;
  return failureCount < 2;
}

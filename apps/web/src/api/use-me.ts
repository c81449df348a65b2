import { WhoIsSignedInSchema, type Me } from "@assay/core";
import { useQuery } from "@tanstack/react-query";
import { getJson, rememberCsrfToken } from "./client";
import { queryKeys } from "./query-keys";

export interface MeState {
  /** The signed-in user, or null when signed out (or while the lookup is pending). */
  me: Me | null;
  signedIn: boolean;
  /** The first lookup has not answered yet. */
  pending: boolean;
}

/**
 * Who is signed in (GET /v1/me), shared by the header, the Profile dialog and every button that
 * needs sign-in. Nobody signed in is an answer (signed_in false); spec section 8: a failed lookup
 * marks the user signed out too, whatever the failure.
 */
export function useMe(): MeState {
  const query = useQuery({
    queryKey: queryKeys.me,
    queryFn: async ({ signal }) => {
      const answer = await getJson("/v1/me", WhoIsSignedInSchema, signal);
      const me = answer.signed_in ? answer : null;
      rememberCsrfToken(me?.csrf_token ?? null);
      return me;
    },
    retry: false,
    staleTime: 60_000,
  });
  const me = query.isSuccess ? query.data : null;
  return { me, signedIn: me !== null, pending: query.isPending };
}

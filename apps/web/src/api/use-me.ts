import { MeSchema, type Me } from "@assay/core";
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
 * needs sign-in. Spec section 8: a failed lookup marks the user signed out, whatever the failure.
 */
export function useMe(): MeState {
  const query = useQuery({
    queryKey: queryKeys.me,
    queryFn: async ({ signal }) => {
      const me = await getJson("/v1/me", MeSchema, signal);
      rememberCsrfToken(me.csrf_token);
      return me;
    },
    retry: false,
    staleTime: 60_000,
  });
  const me = query.isSuccess ? query.data : null;
  return { me, signedIn: me !== null, pending: query.isPending };
}

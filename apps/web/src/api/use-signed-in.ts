import { useMe } from "./use-me";

/** The sign-in tooltip of every disabled change (spec section 2: 'Please sign in'). */
export const SIGN_IN_HINT = "Please sign in";

/** Whether someone is signed in; a failed lookup counts as signed out (spec section 8). */
export function useSignedIn(): boolean {
  return useMe().signedIn;
}

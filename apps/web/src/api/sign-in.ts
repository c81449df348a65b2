import { LogoutResponseSchema } from "@assay/core";
import { rememberCsrfToken, sendJson } from "./client";

/** Where the Sign in button goes: the server's sign-in, back to this very page afterwards. */
export function signInHref(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  return `/auth/login?return_to=${encodeURIComponent(here)}`;
}

/** Page navigation, in one object so that tests can watch it (jsdom cannot navigate). */
export const browser = {
  assign: (url: string) => window.location.assign(url),
};

/** Leaves the app for the sign-in page (a session that ended, in signed-in mode). */
export function goToSignIn(): void {
  browser.assign(signInHref(window.location));
}

/**
 * Signs out: the server ends the session (the CSRF token proves the page is Assay's) and says
 * where to go next, usually the provider's logout, which the browser then opens.
 */
export async function signOut(): Promise<void> {
  const { redirect_to } = await sendJson("POST", "/auth/logout", undefined, LogoutResponseSchema);
  rememberCsrfToken(null);
  browser.assign(redirect_to);
}

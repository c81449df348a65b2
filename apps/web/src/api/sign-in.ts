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

const AFTER_SIGN_OUT = "assay.after-sign-out";

/** An address of this app's pages: a path, not another origin ("//x") nor the auth routes. */
const isOwnPage = (path: string) =>
  path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/auth/");

/**
 * Signs out: the server ends the session (the CSRF token proves the page is Assay's) and says
 * where to go next, usually the provider's logout, which the browser then opens. The page is
 * remembered for this tab: the provider sends the browser back to Assay's root, which opens it
 * again (afterSignOut), since lists and results are readable signed out.
 */
export async function signOut(): Promise<void> {
  const { redirect_to } = await sendJson("POST", "/auth/logout", undefined, LogoutResponseSchema);
  rememberCsrfToken(null);
  const { pathname, search, hash } = window.location;
  const here = `${pathname}${search}${hash}`;
  // Assay's root (no provider logout to visit, or a data-harmonization host, which ends only
  // its own session): straight back to this page, signed out.
  if (redirect_to === "/" && isOwnPage(here)) return browser.assign(here);
  try {
    window.sessionStorage.setItem(AFTER_SIGN_OUT, here);
  } catch {
    // Storage refused (private mode quota): the root's default page will do.
  }
  browser.assign(redirect_to);
}

/** The page signed out from in this tab, if any: where the root sends the browser back to. */
export function afterSignOut(): string | null {
  try {
    const path = window.sessionStorage.getItem(AFTER_SIGN_OUT);
    return path !== null && isOwnPage(path) ? path : null;
  } catch {
    return null;
  }
}

/** Forgets the page: it is returned to once, not on every later visit of the root. */
export function forgetAfterSignOut(): void {
  try {
    window.sessionStorage.removeItem(AFTER_SIGN_OUT);
  } catch {
    // Nothing was kept.
  }
}

/**
 * The embedded provider's pages, rendered on the server: sign-in, sign-out and messages. Plain
 * HTML with one stylesheet (sign-in-assets.ts); every value from a request or the database is
 * escaped. There is no sign-up link: only admins create accounts.
 */

export const ASSETS_PATH = "/oidc/assets";

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Escapes a message and shows its `command` parts as code. */
function messageHtml(message: string): string {
  return escapeHtml(message).replace(/`([^`]+)`/g, "<code>$1</code>");
}

const ERROR_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2M12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8"/></svg>';
const INFO_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M11 7h2v2h-2zm0 4h2v6h-2zm1-9C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2m0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8"/></svg>';

function alertHtml(kind: "error" | "info", message: string): string {
  const icon = kind === "error" ? ERROR_ICON : INFO_ICON;
  const role = kind === "error" ? "alert" : "status";
  return `<div class="alert ${kind}" role="${role}">${icon}<span>${messageHtml(message)}</span></div>`;
}

function layout(options: { title: string; body: string; script?: string; homeUrl: string }) {
  const script = options.script
    ? `\n<script src="${ASSETS_PATH}/${options.script}" defer></script>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Assay</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS_PATH}/sign-in.css">${script}
</head>
<body>
<header class="bar"><a class="brand" href="${escapeHtml(options.homeUrl)}">Assay</a></header>
<main class="page">
${options.body}
</main>
</body>
</html>
`;
}

export interface LoginPageOptions {
  uid: string;
  homeUrl: string;
  /** Typed before, or the client's login_hint. */
  email?: string;
  /** What went wrong with the last attempt. */
  error?: string;
}

/** The sign-in form; it posts back to its own interaction. */
export function renderLoginPage(options: LoginPageOptions): string {
  const email = options.email ?? "";
  const focusPassword = email !== "";
  const body = `<section class="card" aria-labelledby="title">
<h1 id="title">Sign in to Assay</h1>
<p class="lead">Use the account your Assay admin made for you.</p>
${options.error ? alertHtml("error", options.error) : ""}
<form method="post" action="/oidc/interaction/${encodeURIComponent(options.uid)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${escapeHtml(email)}"${focusPassword ? "" : " autofocus"}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128"${focusPassword ? " autofocus" : ""}>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
</section>
<p class="hint">No account yet? An Assay admin can make one with <code>npx assay users add</code>.</p>`;
  return layout({ title: "Sign in", body, homeUrl: options.homeUrl });
}

/** A page that only says something: an expired sign-in, a provider error, signed out. */
export function renderMessagePage(options: {
  title: string;
  message: string;
  kind?: "error" | "info";
  homeUrl: string;
}): string {
  const body = `<section class="card" aria-labelledby="title">
<h1 id="title">${escapeHtml(options.title)}</h1>
${alertHtml(options.kind ?? "error", options.message)}
<div class="actions"><a class="button" href="${escapeHtml(options.homeUrl)}">Back to Assay</a></div>
</section>`;
  return layout({ title: options.title, body, homeUrl: options.homeUrl });
}

/**
 * The sign-out question. `form` is the provider's hidden form (id op.logoutForm, with its
 * anti-forgery token); the buttons submit it. With `autoSubmit` a script presses Sign out.
 */
export function renderLogoutPage(options: {
  form: string;
  autoSubmit: boolean;
  homeUrl: string;
}): string {
  const body = `<section class="card" aria-labelledby="title">
<h1 id="title">Sign out of Assay?</h1>
<p class="lead">You will need your email and password to sign in again.</p>
${options.form}
<div class="actions"${options.autoSubmit ? " data-auto-submit" : ""}>
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
</div>
</section>`;
  return layout({
    title: "Sign out",
    body,
    homeUrl: options.homeUrl,
    script: options.autoSubmit ? "sign-out.js" : undefined,
  });
}

import type { FastifyReply } from "fastify";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text for HTML: a provider's error_description is attacker-controlled and shown as text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * The page a browser sees when sign-in cannot go on (provider down, a callback that does not
 * match): what happened and the way back, in the app's colours, with no script. `signInAgain`
 * starts a new sign-in that returns to the page the failed one started from.
 */
export function sendAuthProblem(
  reply: FastifyReply,
  status: number,
  title: string,
  message: string,
  signInAgain: string,
): FastifyReply {
  // The look of the web app's theme and the embedded provider's pages: grey page, white card.
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Assay</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
body{margin:0;font:13px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;background:#f6f8fa;color:#1f2328}
header{display:flex;align-items:center;height:48px;padding:0 24px;background:#fff;border-bottom:1px solid #d1d9e0}
header a{font-weight:700;font-size:18px;color:#1f2328;text-decoration:none}
main{max-width:360px;margin:72px auto 0;padding:24px;background:#fff;border:1px solid #d1d9e0;border-radius:6px}
h1{font-size:18px;font-weight:600;margin:0 0 12px}
p{margin:0 0 16px;padding:8px 12px;border-radius:6px;background:#fbe9ea;color:#5f1a1e}
a.button{display:block;text-align:center;margin-top:8px;padding:7px 16px;border-radius:6px;font-size:14px;font-weight:500;text-decoration:none;border:1px solid #0969da;background:#0969da;color:#fff}
a.secondary{background:#fff;color:#0969da;border-color:#d1d9e0}
</style></head>
<body><header><a href="/">Assay</a></header>
<main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>
<a class="button" href="${escapeHtml(signInAgain)}">Sign in again</a><a class="button secondary" href="/">Back to Assay</a></main></body></html>`;
  return reply
    .status(status)
    .header("cache-control", "no-store")
    .type("text/html; charset=utf-8")
    .send(body);
}

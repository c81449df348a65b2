/**
 * The files the provider's pages load: one stylesheet and one small script, served from /oidc
 * so that the pages need no inline script and the app's CSP (script-src 'self') holds on them.
 * The look follows the web app's MUI theme (apps/web/src/theme/theme.ts): system fonts, the grey
 * page background, white panels with thin borders, the primary blue, MUI's error alert.
 */

export const SIGN_IN_CSS = `*,*::before,*::after{box-sizing:border-box}
html{font-size:16px}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#f6f8fa;color:#1f2328;
font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;
font-size:13px;line-height:1.5}
.bar{display:flex;align-items:center;height:48px;padding:0 24px;background:#fff;
border-bottom:1px solid #d1d9e0}
.brand{font-weight:700;font-size:1.125rem;color:#1f2328;text-decoration:none}
.page{flex:1;display:flex;flex-direction:column;align-items:center;padding:72px 16px 32px}
.card{width:100%;max-width:380px;background:#fff;border:1px solid #d1d9e0;border-radius:6px;
padding:24px}
h1{margin:0 0 4px;font-size:1.125rem;font-weight:600;line-height:1.4}
h1+.alert{margin-top:12px}
.lead{margin:0 0 16px;color:#59636e}
.alert{display:flex;gap:10px;align-items:flex-start;margin:0 0 16px;padding:8px 12px;
border-radius:6px;background:#fbe9ea;color:#5f1a1e}
.alert svg{flex:none;width:18px;height:18px;margin-top:1px;fill:#d1242f}
.alert.info{background:#e8f1fc;color:#0b3a70}
.alert.info svg{fill:#0969da}
label{display:block;margin:0 0 4px;font-weight:500}
input{display:block;width:100%;height:34px;margin:0 0 14px;padding:6px 10px;font:inherit;
font-size:14px;color:#1f2328;background:#fff;border:1px solid #d1d9e0;border-radius:6px}
input:hover{border-color:#1f2328}
input:focus{outline:none;border-color:#0969da;box-shadow:0 0 0 1px #0969da}
.actions{display:flex;flex-direction:column;gap:8px;margin-top:4px}
button,.button{display:flex;align-items:center;justify-content:center;width:100%;height:34px;
padding:0 16px;font:inherit;font-size:14px;font-weight:500;border-radius:6px;cursor:pointer;
text-decoration:none;border:1px solid #0969da;background:#0969da;color:#fff}
button:hover,.button:hover{background:#0757b8;border-color:#0757b8}
button:focus-visible,.button:focus-visible{outline:2px solid #0969da;outline-offset:2px}
button.secondary{background:#fff;color:#0969da;border-color:#d1d9e0}
button.secondary:hover{background:#f6f8fa}
.hint{max-width:420px;margin:16px 0 0;color:#59636e;text-align:center}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;
padding:1px 4px;border-radius:4px;background:rgba(175,184,193,.2);white-space:nowrap}
.alert code{background:rgba(255,255,255,.6)}
`;

/**
 * Signs out without a second question when Assay itself asked for it (the page carries
 * data-auto-submit only then); without JavaScript the user presses the button.
 */
export const SIGN_OUT_JS = `document.addEventListener("DOMContentLoaded", function () {
  var button = document.querySelector("[data-auto-submit] button[name=logout]");
  if (button) button.click();
});
`;

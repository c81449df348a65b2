import type { BadgeRun } from "./badge.repo.js";

/**
 * A flat, shields.io-style badge: a grey label and a coloured message. Colour follows the run's
 * state (failed red, passed green, no run grey), and the words say it too, so colour is never
 * the only sign.
 */

export const BADGE_COLOURS = { failed: "#e05d44", passed: "#44cc11", none: "#9f9f9f" } as const;

const xml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Verdana 11px is about 6.5 px a character on average; the padding is 10 px. */
const widthOf = (text: string) => Math.round(text.length * 6.5 + 10);

export function badgeMessage(
  run: BadgeRun | undefined,
  show: "counts" | "rate",
): { text: string; state: keyof typeof BADGE_COLOURS } {
  if (!run || run.total === 0) return { text: "no runs", state: "none" };
  const state = run.failed > 0 ? "failed" : "passed";
  if (show === "rate") {
    const counted = run.passed + run.failed;
    const rate = counted === 0 ? 0 : Math.floor((run.passed / counted) * 1000) / 10;
    return { text: `${rate}% passed`, state };
  }
  return {
    text: run.failed > 0 ? `${run.passed} passed, ${run.failed} failed` : `${run.passed} passed`,
    state,
  };
}

export function badgeSvg(label: string, message: string, colour: string): string {
  const left = widthOf(label);
  const right = widthOf(message);
  const total = left + right;
  const title = `${label}: ${message}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${xml(title)}">
<title>${xml(title)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${colour}"/><rect width="${total}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="15" fill="#010101" fill-opacity=".3">${xml(label)}</text><text x="${left / 2}" y="14">${xml(label)}</text>
<text x="${left + right / 2}" y="15" fill="#010101" fill-opacity=".3">${xml(message)}</text><text x="${left + right / 2}" y="14">${xml(message)}</text>
</g></svg>`;
}

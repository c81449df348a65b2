/**
 * A timestamp as the screens show it (spec section 9: times in UTC): "2026-05-01 12:00:03 UTC".
 * A missing or unreadable value shows as a dash.
 */
export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return "–";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "–";
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

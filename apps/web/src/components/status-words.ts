/**
 * A build's status or phase in words: "IN_PROGRESS" reads "In progress". The Builds list and
 * the Daily Run Scheduler both say it so (the raw value stays in tooltips for searches).
 */
export function humanize(value: string): string {
  const words = value.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

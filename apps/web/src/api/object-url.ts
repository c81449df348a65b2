/**
 * The URL of a stored object (a screenshot, an attachment, a report) by its key. Each segment
 * is encoded, so a key with a space, `#` or `?` still names its object; the slashes stay.
 */
export function objectUrl(key: string): string {
  return `/v1/objects/${key.split("/").map(encodeURIComponent).join("/")}`;
}

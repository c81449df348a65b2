/**
 * True when an If-None-Match header names `etag`, by weak comparison as RFC 9110 asks for it
 * (a proxy that compresses an answer weakens its ETag to W/"..."), or is "*".
 */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || strip(tag) === strip(etag));
}

/**
 * PostgreSQL array literals for large parameters ("{1,2,3}", "{\"a\",NULL}"), passed as text and
 * cast in the statement ($1::bigint[]). The driver builds the same literal from a JavaScript
 * array, but runs a regular expression and a string copy over every element: for the 10,000
 * failures of a 100k-test upload, seven such arrays cost more than fingerprinting them
 * (docs/performance.md, "Triage"). Here the engine's JSON writer does the quoting: a JSON
 * array of strings is an array literal but for its brackets, as long as JSON escaped nothing
 * but quotes and backslashes (both escape those with a backslash; `null` reads as NULL).
 */

/** A backslash escaping anything but a quote or a backslash (\n, \u0001): not an array's. */
const JSON_ONLY_ESCAPE = /\\[^"\\]/;

const NEEDS_ESCAPE = /["\\]/;

/** A text[] literal: every element quoted, backslashes and quotes escaped, null as NULL. */
export function textArray(values: readonly (string | null)[]): string {
  const json = JSON.stringify(values);
  if (!JSON_ONLY_ESCAPE.test(json)) return `{${json.slice(1, -1)}}`;
  // Control characters in some value: each element quoted by hand.
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = "NULL";
    else if (NEEDS_ESCAPE.test(value)) parts[i] = `"${value.replace(/["\\]/g, "\\$&")}"`;
    else parts[i] = `"${value}"`;
  }
  return `{${parts.join(",")}}`;
}

/** A numeric array literal (bigint[], float8[]): numbers need no quoting. */
export function numberArray(values: readonly number[]): string {
  return `{${values.join(",")}}`;
}

import type { Family } from "@assay/core";
import { digestOf } from "../encoding/fingerprints.js";

export type { Family };

/** Reads a test's stable id from its tags (pattern or bare number), then its title and name. */
export function explicitTestId(
  candidates: { tags: readonly string[]; texts: readonly (string | undefined)[] },
  pattern: RegExp,
): number | undefined {
  for (const tag of candidates.tags) {
    const bare = /^@?(\d{1,15})$/.exec(tag.trim());
    const match = bare ?? pattern.exec(tag);
    if (match?.[1]) return Number(match[1]);
  }
  for (const text of candidates.texts) {
    const match = text ? pattern.exec(text) : null;
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

export function identityOf(
  family: Family,
  file: string | undefined,
  suitePath: readonly string[],
  name: string,
): string {
  return digestOf([family, file ?? "", ...suitePath, name].join("\u0000"));
}

/**
 * The identity of the n-th (2, 3, ...) distinct test of an upload that shares `identity` (file,
 * suite path and name) with tests before it: two tests of one title in one Mocha file, or
 * same-named JUnit test cases. Its position among its namesakes, so a re-upload finds it again.
 */
export function namesakeIdentity(identity: string, n: number): string {
  return digestOf(`${identity}\u0000${n}`);
}

/**
 * A test's key in KnownTests: its explicit id (a number), else its identity (a string, which
 * hashes the family in). Used as they come, so a lookup builds no string.
 */
export type CatalogueKey = number | string;

export const catalogueKey = (explicitId: number | undefined, identity: string): CatalogueKey =>
  explicitId ?? identity;

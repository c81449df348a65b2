import { setImmediate as nextTurn } from "node:timers/promises";
import type { FastifySerializerCompiler } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";

/**
 * A route-level serializer compiler for the run details: their 200 answer is JSON.stringify'd
 * as the service built it, without zod's runtime check. That check rebuilds the whole object
 * tree (10 MB of JSON for a 14,000-result run) and cost more than the query itself. The route
 * keeps its response schema, so OpenAPI still documents the answer. What zod guaranteed is kept
 * by the code and by tests instead: the services return exact object literals typed by the
 * schema (runs.mappers.ts), with the schema's keys in its order, and run-details.test.ts checks
 * that real answers are byte for byte what zod's serializer would have sent.
 */
export function sendOkAsBuilt<S>(
  route: Parameters<FastifySerializerCompiler<S>>[0],
): (data: unknown) => string {
  if (route.httpStatus === "200") return (data) => JSON.stringify(data);
  // Not Modified has no body (HTTP forbids one).
  if (route.httpStatus === "304") return () => "";
  // Error bodies: small, and checked by zod as on every other route.
  return serializerCompiler(route as unknown as Parameters<typeof serializerCompiler>[0]);
}

/** Items mapped and serialized between two turns of the event loop (a few ms of work). */
export const ITEMS_A_TURN = 2000;

/**
 * `JSON.stringify(items.map(map))` in pieces (their concatenation is that text, see JsonPieces),
 * made a slice of items at a time with a turn of the event loop between slices: a 100,000-result
 * run detail (68 MB of JSON) mapped and serialized at once kept every other request waiting
 * 0.4-0.5 s. Each slice's objects die young.
 */
export async function jsonArrayOf<T, U>(
  items: readonly T[],
  map: (item: T) => U,
): Promise<JsonPieces> {
  if (items.length === 0) return ["[]"];
  const pieces: string[] = [];
  for (let at = 0; at < items.length; at += ITEMS_A_TURN) {
    if (at > 0) await nextTurn();
    const slice = JSON.stringify(items.slice(at, at + ITEMS_A_TURN).map(map));
    // The slices' own brackets dropped, but the array's first and last.
    const first = at === 0;
    const last = at + ITEMS_A_TURN >= items.length;
    pieces.push(`${first ? "[" : ","}${slice.slice(1, last ? undefined : -1)}`);
  }
  return pieces;
}

/**
 * A JSON text in pieces, in order. A large answer is sent piece by piece (each encoded to bytes
 * on its own turn of the event loop) rather than joined: joining a 100,000-result run's 68 MB
 * held the server's thread ~0.4 s, and writing it as one string ~0.6 s more.
 */
export type JsonPieces = readonly string[];

/** The characters of a text in pieces (near enough its bytes, for JSON). */
export function charsOf(pieces: JsonPieces): number {
  let chars = 0;
  for (const piece of pieces) chars += piece.length;
  return chars;
}

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
 * `JSON.stringify(items.map(map))`, the same text, made a slice of items at a time with a turn of
 * the event loop between slices: a 100,000-result run detail (68 MB of JSON) mapped and
 * serialized at once kept every other request waiting 0.4-0.5 s. Each slice's objects die young.
 */
export async function jsonArrayOf<T, U>(items: readonly T[], map: (item: T) => U): Promise<string> {
  const parts: string[] = [];
  for (let at = 0; at < items.length; at += ITEMS_A_TURN) {
    if (at > 0) await nextTurn();
    parts.push(JSON.stringify(items.slice(at, at + ITEMS_A_TURN).map(map)).slice(1, -1));
  }
  return `[${parts.join(",")}]`;
}

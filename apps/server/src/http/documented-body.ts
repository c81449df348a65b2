import type { FastifyRouteSchemaDef, FastifyValidationResult } from "fastify/types/schema.js";
import { validatorCompiler } from "fastify-type-provider-zod";

/**
 * A route's validatorCompiler for a body its schema only documents (in /docs): the body passes as
 * it came, for the handler to check with a message that names what is wrong, while the params,
 * query and headers are checked by their zod schemas as on every other route.
 */
export function documentedBodyOnly<S>(route: FastifyRouteSchemaDef<S>): FastifyValidationResult {
  if (route.httpPart === "body") return (data) => ({ value: data });
  // Fastify hands each part its own schema (a zod object), not the route's whole schema.
  return validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
}

import { z } from "zod";
import type { Principal } from "../../auth/access.js";
import type { IdempotencyKey } from "../ingest.repo.js";

/** The Idempotency-Key header of the write routes that take one (uploads, live attachments). */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Makes a retried request return the first answer instead of storing it twice. A key " +
        "belongs to the token (or user) that sent it and is kept 24 hours; the same key with " +
        "other content answers 422.",
    ),
});

/** Who an Idempotency-Key belongs to: the service token, or the signed-in user. */
function clientOf(principal: Principal | undefined): string {
  if (principal?.kind === "user") return `user:${principal.id}`;
  return `token:${principal?.name ?? ""}`;
}

/** The request's Idempotency-Key with its client, or undefined when none was sent. */
export function idempotencyKeyOf(
  key: string | undefined,
  principal: Principal | undefined,
): IdempotencyKey | undefined {
  return key === undefined ? undefined : { client: clientOf(principal), key };
}

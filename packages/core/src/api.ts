import { z } from "zod";

/** The one error body every failing API call returns (DESIGN.md section 4). */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string().describe("Stable snake_case code a client can branch on"),
    message: z.string().describe("What went wrong and what to do, for a person"),
    details: z.unknown().optional().describe("Structured detail, such as the invalid fields"),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const HealthSchema = z.object({
  status: z.literal("ok").describe("The process is up"),
});

export const ReadinessSchema = z.object({
  status: z.literal("ready"),
  database: z.object({
    migrations: z.number().int().describe("Migrations applied"),
  }),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

import { z } from "zod";

/**
 * Status badges (issue 38): GET /badge/{family}.svg with the run list's filters answers an SVG of
 * the latest matching run: its passed/failed counts, or its pass rate.
 */

export const BadgeParamsSchema = z.object({
  family: z.enum(["frontend", "backend", "load"], {
    error: "The badge's family is frontend, backend or load: /badge/frontend.svg",
  }),
});

const filter = (what: string) => z.string().trim().min(1).max(200).optional().describe(what);

export const BadgeQuerySchema = z.strictObject({
  branch: filter("Exact branch"),
  platform: z.enum(["legacy", "nextGen"]).optional().describe("Frontend platform"),
  site: filter("Exact site (nora_site)"),
  name: filter("Part of the run's name, any case"),
  show: z
    .enum(["counts", "rate"])
    .default("counts")
    .describe("counts: '42 passed, 3 failed'; rate: '93% passed'"),
  label: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .optional()
    .describe("Left-hand text; default '{family} tests'"),
  token: z
    .string()
    .max(200)
    .optional()
    .describe("ASSAY_BADGE_TOKEN, when reading needs sign-in (for READMEs)"),
});
export type BadgeQuery = z.infer<typeof BadgeQuerySchema>;

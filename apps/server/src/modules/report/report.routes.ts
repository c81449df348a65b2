import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { notFound } from "../../errors.js";
import type { TriageDeps } from "../triage/pending.service.js";
import { runFailureGroups } from "../triage/triage.service.js";
import { reportHtml } from "./report.html.js";
import type { ObjectStore } from "../../storage/index.js";
import { findReportRun, listReportResults } from "./report.repo.js";
import { IMAGE_CAP, reportShots, TOTAL_CAP } from "./report.shots.js";

const ParamsSchema = z.object({ key: z.string().min(1).max(200).describe("The run's key") });
const QuerySchema = z.strictObject({
  screenshots: z
    .stringbool()
    .default(false)
    .describe(
      `Inline the tests' screenshots (each up to ${IMAGE_CAP / 1048576} MB, ${TOTAL_CAP / 1048576} MB in all; past that a note and a link)`,
    ),
});

/** GET /v1/test-runs/{key}/report.html: the run as one HTML file (issue 38). */
export const reportRoutes =
  (triage: TriageDeps, objects: ObjectStore, publicUrl: string): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = triage;
    app.get(
      "/v1/test-runs/:key/report.html",
      {
        schema: {
          tags: ["report"],
          summary: "The run as one HTML file that opens offline (a download)",
          description:
            "Counts, the failures by cause (triage's failure groups), then every test with its steps and error. The HTML is the answer (no JSON schema); errors are JSON.",
          produces: ["text/html"],
          params: ParamsSchema,
          querystring: QuerySchema,
        },
      },
      async (request, reply) => {
        const run = await findReportRun(db, request.params.key);
        if (!run) throw notFound(`No run with key ${request.params.key}.`);
        const shots = request.query.screenshots
          ? await reportShots(db, objects, run.id, publicUrl)
          : undefined;
        const [results, groups] = await Promise.all([
          listReportResults(db, run.id),
          runFailureGroups(triage, run.key),
        ]);
        const body = reportHtml(run, results, groups, new Date(), shots);
        const file = `assay-${run.key.replace(/[^A-Za-z0-9._-]/g, "_")}.html`;
        return (
          reply
            .header("content-type", "text/html; charset=utf-8")
            .header("content-disposition", `attachment; filename="${file}"`)
            // The file is data, not a page of this site: it runs nothing here.
            .header(
              "content-security-policy",
              "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
            )
            .send(body)
        );
      },
    );
  };

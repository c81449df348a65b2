import { BadgeParamsSchema, BadgeQuerySchema } from "@assay/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/pool.js";
import { latestRun } from "./badge.repo.js";
import { BADGE_COLOURS, badgeMessage, badgeSvg } from "./badge.svg.js";

/** How long a badge may be cached: a README shows a minute-old state at worst. */
const MAX_AGE_SECONDS = 60;

/** GET /badge/{family}.svg: the latest matching run as a badge (issue 38). */
export const badgeRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/badge/:family.svg",
      {
        // Public when reading is public; else a signed-in caller or ?token=ASSAY_BADGE_TOKEN.
        config: { access: "badge" },
        schema: {
          tags: ["badge"],
          summary: "A status badge of the latest matching run (SVG)",
          description:
            "Filters as the run list's: branch, platform, site, name (part of the run's name). show=counts (default) or rate. Answers image/svg+xml (the SVG is the answer, so no JSON schema), cached for a minute; errors are JSON.",
          produces: ["image/svg+xml"],
          params: BadgeParamsSchema,
          querystring: BadgeQuerySchema,
        },
      },
      async (request, reply) => {
        const { family } = request.params;
        const query = request.query;
        const run = await latestRun(db, family, query);
        const message = badgeMessage(run, query.show);
        const svg = badgeSvg(
          query.label ?? `${family} tests`,
          message.text,
          BADGE_COLOURS[message.state],
        );
        // A badge read with a token or a session is not for shared caches.
        const scope = query.token || request.principal ? "private" : "public";
        return reply
          .header("content-type", "image/svg+xml; charset=utf-8")
          .header("cache-control", `${scope}, max-age=${MAX_AGE_SECONDS}`)
          .header("x-badge-state", message.state)
          .send(svg);
      },
    );
  };

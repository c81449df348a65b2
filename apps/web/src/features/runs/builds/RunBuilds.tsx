import type { Build } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { buildsHref } from "../../../components/builds-url";
import { useRunBuilds, type RunBuildsFamily } from "./use-run-builds";

/** "IN_PROGRESS" reads "in progress". */
const words = (value: string) => value.toLowerCase().replaceAll("_", " ");

function what(build: Build): string {
  return build.rerunOf ? `rerun of ${build.rerunOf}` : "build";
}

/**
 * The builds that made this run, with their status, each linking to its log on Builds: the run
 * links to its builds as each build links to its run. A run uploaded from elsewhere has none
 * and shows nothing.
 */
export function RunBuilds({
  family,
  runKey,
  china,
}: {
  family: RunBuildsFamily;
  runKey: string;
  china: boolean;
}) {
  const builds = useRunBuilds(family, runKey, china);
  if (builds.isError) {
    return (
      <Typography variant="body2" color="text.secondary">
        The builds of this run could not be loaded: {builds.error.message}
      </Typography>
    );
  }
  const items = builds.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Box
      component="nav"
      aria-label="Builds of this run"
      sx={{ display: "flex", flexWrap: "wrap", columnGap: 1.5, rowGap: 0.25, fontSize: 14 }}
    >
      <Box component="span" sx={{ color: "text.secondary" }}>
        Builds of this run:
      </Box>
      {[...items].reverse().map((build) => (
        <span key={build.id}>
          <Link
            component={RouterLink}
            to={buildsHref({
              tab: family,
              region: build.region,
              log: String(build.id),
            })}
          >
            #{build.id} {what(build)}
          </Link>{" "}
          <Box
            component="span"
            sx={{
              color: build.buildStatus === "IN_PROGRESS" ? "status.running" : "text.secondary",
            }}
          >
            ({words(build.buildStatus)}
            {build.buildStatus === "IN_PROGRESS" ? `, ${words(build.currentPhase)}` : ""})
          </Box>
        </span>
      ))}
    </Box>
  );
}

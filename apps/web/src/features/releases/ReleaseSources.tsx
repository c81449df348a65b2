import type { ReleaseReport, ReleaseSource } from "@assay/core";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";

const KIND_LABELS: Record<ReleaseSource["kind"], string> = {
  jira: "Jira",
  spira: "Spira",
  builds: "Assay OQ builds",
  file: "Imported file",
};

function SourceChip({ source }: { source: ReleaseSource }) {
  const label = `${KIND_LABELS[source.kind]}${source.demo ? " (demo)" : ""}`;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={source.demo ? "warning" : "default"}
      label={label}
      title={source.detail}
    />
  );
}

const FIGURES = [
  ["releaseVersions", "Release versions"],
  ["totalOQ", "Total OQ"],
  ["incidents", "Incidents"],
] as const;

/**
 * Where each figure came from (a tracker, the demo's fake of it, an imported requirements file,
 * Assay's OQ builds), with the detail a validation lead checks: which project, which JQL, which
 * file.
 */
export function ReleaseSources({ report }: { report: ReleaseReport }) {
  return (
    <Stack component="section" aria-label="Sources of the figures" sx={{ gap: 0.5 }}>
      <Typography variant="subtitle2">Where the figures come from</Typography>
      {FIGURES.map(([key, label]) => (
        <Stack key={key} direction="row" sx={{ gap: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 500, width: 130, flexShrink: 0, pt: 0.25 }}>
            {label}
          </Typography>
          <Stack sx={{ gap: 0.5 }}>
            {report.sources[key].map((source) => (
              <Stack
                key={`${source.kind}-${source.detail}`}
                direction="row"
                sx={{ alignItems: "center", gap: 0.75 }}
              >
                <SourceChip source={source} />
                <Typography variant="body2" color="text.secondary">
                  {source.detail}
                </Typography>
              </Stack>
            ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}

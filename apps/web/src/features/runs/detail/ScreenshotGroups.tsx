import { formatUtc, groupScreenshotsWithSteps, type Screenshot, type Step } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { objectUrl } from "../../../api/object-url";
import { StepList } from "../../../components/StepList";

/** A screenshot that opens full size in a new tab. */
export function ScreenshotImage({ path, alt }: { path: string; alt: string }) {
  return (
    <Link href={objectUrl(path)} target="_blank" rel="noopener noreferrer" sx={{ lineHeight: 0 }}>
      <Box
        component="img"
        src={objectUrl(path)}
        alt={alt}
        loading="lazy"
        sx={{
          display: "block",
          maxWidth: "100%",
          maxHeight: 360,
          border: 1,
          borderColor: "divider",
          borderRadius: 1,
        }}
      />
    </Link>
  );
}

/**
 * The screenshots in the order taken, each with the steps that precede it (the steps since the
 * previous screenshot), then any steps after the last one.
 */
export function ScreenshotGroups({
  steps,
  screenshots,
}: {
  steps: readonly Step[];
  screenshots: readonly Screenshot[];
}) {
  if (screenshots.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No screenshots were taken.
      </Typography>
    );
  }
  const { groups, remaining } = groupScreenshotsWithSteps(steps, screenshots);
  return (
    <Box sx={{ display: "grid", gap: 1.5 }}>
      {groups.map(({ screenshot, steps: before }, index) => (
        <Paper
          key={screenshot.id}
          variant="outlined"
          component="figure"
          sx={{ m: 0, p: 1.5, display: "grid", gridTemplateColumns: "minmax(0, 1fr) 1fr", gap: 2 }}
        >
          <Box>
            <ScreenshotImage
              path={screenshot.screenshotpath}
              alt={screenshot.description ?? `Screenshot ${index + 1}`}
            />
            <Typography component="figcaption" variant="body2" sx={{ mt: 0.5 }}>
              {screenshot.description ?? `Screenshot ${index + 1}`}
              <Typography component="span" variant="caption" color="text.secondary">
                {" · "}
                {formatUtc(screenshot.timestamp)}
              </Typography>
            </Typography>
          </Box>
          <Box>
            <Typography variant="overline" color="text.secondary">
              Steps before it
            </Typography>
            <StepList
              steps={before.map((item) => item.step)}
              start={(before[0]?.index ?? 0) + 1}
              label={`Steps before screenshot ${index + 1}`}
            />
          </Box>
        </Paper>
      ))}
      {remaining.length > 0 && (
        <Box>
          <Typography variant="overline" color="text.secondary">
            Steps after the last screenshot
          </Typography>
          <StepList
            steps={remaining.map((item) => item.step)}
            start={(remaining[0]?.index ?? 0) + 1}
            label="Steps after the last screenshot"
          />
        </Box>
      )}
    </Box>
  );
}

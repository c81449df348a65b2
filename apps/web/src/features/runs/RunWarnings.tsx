import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";

/**
 * What a run's reports said that Assay stored otherwise than written (a test case without a
 * name, totals that disagree with the tests listed), as the uploads answered: shown on the run's
 * dialog so that a run that looks complete but is not says so. Nothing when there are none.
 */
export function RunWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <Alert severity="warning" role="status" aria-label="Report warnings" sx={{ mb: 1 }}>
      <AlertTitle>
        {warnings.length === 1
          ? "The report of this run says something Assay stored differently"
          : `The reports of this run say ${warnings.length} things Assay stored differently`}
      </AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5, overflowWrap: "anywhere" }}>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </Box>
    </Alert>
  );
}

import InfoOutlined from "@mui/icons-material/InfoOutlined";
import Box from "@mui/material/Box";
import { alpha } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { useInstance } from "../api/use-instance";

/**
 * Says that the runs on screen were generated (ASSAY_DEMO), so nobody mistakes them for their
 * own results. Shown only once the server says so: while loading or on an error it stays away,
 * as a missing notice costs less than a false one.
 */
export function DemoBanner() {
  const instance = useInstance();
  if (!instance.data?.demo) return null;
  return (
    <Box
      role="note"
      aria-label="Demo data"
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        px: 2,
        py: 0.5,
        borderBottom: 1,
        borderColor: "divider",
        bgcolor: (theme) => alpha(theme.palette.primary.main, 0.08),
        color: "text.primary",
      }}
    >
      <InfoOutlined fontSize="small" sx={{ color: "primary.main" }} aria-hidden />
      <Typography variant="body2">
        <strong>Demo data:</strong> these runs were generated to show Assay. Start with{" "}
        <code>ASSAY_DEMO=0</code> and an empty data folder for a clean install.
      </Typography>
    </Box>
  );
}

import { passShare, type BarShare } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

function Segment({ share, color, name }: { share: BarShare; color: string; name: string }) {
  if (share.percent === 0) return null;
  return (
    <Box
      data-segment={name}
      sx={{
        width: `${share.percent}%`,
        bgcolor: color,
        color: "common.white",
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        overflow: "hidden",
        fontSize: "0.75rem",
        fontWeight: 600,
        fontVariantNumeric: "tabular-nums",
      }}
    >
      {share.label}
    </Box>
  );
}

/**
 * The pass/fail bar of Test History (spec section 2): green for the passed share, red for the
 * rest, each labelled with its percent only when over 4% (spec section 9). The counts are said
 * in words beside it, so the bar never relies on colour alone.
 */
export function PassFailBar({ passed, total }: { passed: number; total: number }) {
  const bar = passShare(passed, total);
  const percent = (share: BarShare) => share.label ?? `${Math.round(share.percent * 10) / 10}%`;
  const summary = `${bar.passed} of ${bar.total} passed (${percent(bar.passedShare)}), ${bar.rest} failed or other (${percent(bar.restShare)})`;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 2 }}>
      <Box
        role="img"
        aria-label={`Pass rate: ${summary}`}
        sx={{
          display: "flex",
          flexGrow: 1,
          height: 22,
          borderRadius: 1,
          overflow: "hidden",
          bgcolor: "action.hover",
        }}
      >
        <Segment share={bar.passedShare} color="status.passed" name="passed" />
        <Segment share={bar.restShare} color="status.failed" name="rest" />
      </Box>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }}
      >
        <Box component="span" sx={{ color: "status.passed", fontWeight: 600 }}>
          {bar.passed} passed
        </Box>
        {" · "}
        <Box component="span" sx={{ color: "status.failed", fontWeight: 600 }}>
          {bar.rest} failed or other
        </Box>
        {` of ${bar.total}`}
      </Typography>
    </Box>
  );
}

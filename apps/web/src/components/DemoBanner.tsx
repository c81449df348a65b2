import InfoOutlined from "@mui/icons-material/InfoOutlined";
import Box from "@mui/material/Box";
import { alpha } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { queryKeys } from "../api/query-keys";
import { useInstance } from "../api/use-instance";

/**
 * Says that the runs on screen were generated (ASSAY_DEMO), so nobody mistakes them for their
 * own results. Shown only once the server says so: while loading or on an error it stays away,
 * as a missing notice costs less than a false one. On a first start the demo loads in the
 * background for a minute or more: the banner says so, and when the load ends every screen
 * reads its data again, so nobody is left looking at half of it.
 */
export function DemoBanner() {
  const instance = useInstance();
  const queryClient = useQueryClient();
  const loading = instance.data?.demo === true && instance.data.demo_loaded_at === null;
  const wasLoading = useRef(false);
  useEffect(() => {
    // Every answer but this one, which has just said so.
    if (wasLoading.current && !loading)
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== queryKeys.instance[0],
      });
    wasLoading.current = loading;
  }, [loading, queryClient]);
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
        {loading && (
          <>
            {" "}
            <strong>Still loading:</strong> the screens fill in over the next minutes and read
            everything again once it has loaded.
          </>
        )}
      </Typography>
    </Box>
  );
}

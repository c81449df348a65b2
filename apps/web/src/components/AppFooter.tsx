import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useCatalog } from "../api/use-catalog";
import { CatalogError } from "./CatalogError";

export function AppFooter() {
  const catalog = useCatalog();
  return (
    <Box
      component="footer"
      aria-busy={catalog.isPending}
      sx={{
        display: "flex",
        flexWrap: "wrap",
        justifyContent: "space-between",
        gap: 2,
        px: 2,
        py: 1,
        borderTop: 1,
        borderColor: "divider",
        color: "text.secondary",
      }}
    >
      {catalog.isPending && (
        <>
          <Skeleton variant="text" width={180} />
          <Skeleton variant="text" width={260} />
        </>
      )}
      {catalog.isError && <CatalogError what="the footer" error={catalog.error} />}
      {catalog.isSuccess && (
        <>
          <Typography variant="caption">{catalog.data.footer.copyright}</Typography>
          <Typography variant="caption">{catalog.data.footer.tagline}</Typography>
        </>
      )}
    </Box>
  );
}

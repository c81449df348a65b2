import Typography from "@mui/material/Typography";

/** A catalogue that failed to load is said so in place; nothing is made up to fill the gap. */
export function CatalogError({ what, error }: { what: string; error: Error }) {
  return (
    <Typography role="alert" variant="caption" color="error" sx={{ display: "block" }}>
      Could not load {what}: {error.message}
    </Typography>
  );
}

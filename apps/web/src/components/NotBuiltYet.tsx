import ConstructionOutlined from "@mui/icons-material/ConstructionOutlined";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

/**
 * The empty state of a screen whose capability is not built yet: it says so plainly and what
 * the screen will show, rather than showing made-up data.
 */
export function NotBuiltYet({ willShow }: { willShow: string }) {
  return (
    <Box
      sx={{
        maxWidth: 640,
        mx: "auto",
        mt: 4,
        p: 4,
        textAlign: "center",
        border: 1,
        borderStyle: "dashed",
        borderColor: "divider",
        borderRadius: 1,
        bgcolor: "background.paper",
      }}
    >
      <ConstructionOutlined color="disabled" aria-hidden />
      <Typography variant="h2" sx={{ mt: 1, mb: 1 }}>
        This screen is not built yet in this version
      </Typography>
      <Typography color="text.secondary">{willShow}</Typography>
    </Box>
  );
}

import AppBar from "@mui/material/AppBar";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { HeaderActions } from "./HeaderActions";

export function AppHeader({ title }: { title: string }) {
  return (
    <AppBar position="sticky" sx={{ borderBottom: 1, borderColor: "divider" }}>
      <Toolbar variant="dense" sx={{ gap: 2 }}>
        <Typography variant="h1" noWrap sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <HeaderActions />
      </Toolbar>
    </AppBar>
  );
}

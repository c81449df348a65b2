import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import type SvgIcon from "@mui/material/SvgIcon";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { Link } from "react-router";
import { SIDEBAR_WIDTH } from "../theme/layout";
import { DocumentationLinks } from "./DocumentationLinks";

/** One screen in the side navigation; the list is generated from the route table. */
export interface NavEntry {
  id: string;
  label: string;
  to: string;
  icon: typeof SvgIcon;
}

interface SidebarProps {
  entries: readonly NavEntry[];
  /** The entry of the route that matched, if any (sub-paths such as /history/42 included). */
  activeId: string | undefined;
}

export function Sidebar({ entries, activeId }: SidebarProps) {
  return (
    <Drawer
      variant="permanent"
      sx={{
        width: SIDEBAR_WIDTH,
        flexShrink: 0,
        "& .MuiDrawer-paper": { width: SIDEBAR_WIDTH, boxSizing: "border-box" },
      }}
    >
      <Toolbar variant="dense">
        <Typography component="span" sx={{ fontWeight: 700, fontSize: "1.125rem" }}>
          Assay
        </Typography>
      </Toolbar>
      <Divider />
      <Box component="nav" aria-label="Screens">
        <List>
          {entries.map((entry) => (
            <NavItem key={entry.id} entry={entry} active={entry.id === activeId} />
          ))}
        </List>
      </Box>
      <Divider />
      <DocumentationLinks />
    </Drawer>
  );
}

function NavItem({ entry, active }: { entry: NavEntry; active: boolean }) {
  const Icon = entry.icon;
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={Link}
        to={entry.to}
        selected={active}
        aria-current={active ? "page" : undefined}
      >
        <ListItemIcon sx={{ minWidth: 32 }}>
          <Icon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={entry.label} />
      </ListItemButton>
    </ListItem>
  );
}

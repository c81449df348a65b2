import MenuBookOutlined from "@mui/icons-material/MenuBookOutlined";
import OpenInNew from "@mui/icons-material/OpenInNew";
import type { DocumentationLink } from "@assay/core";
import Box from "@mui/material/Box";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Skeleton from "@mui/material/Skeleton";
import { useCatalog } from "../api/use-catalog";
import { CatalogError } from "./CatalogError";

const SKELETON_ROWS = 3;

// Read by screen readers, invisible on screen.
const visuallyHidden = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;

/** The sidebar's documentation links, in the order the catalogue lists them. */
export function DocumentationLinks() {
  const catalog = useCatalog();
  return (
    <Box component="nav" aria-label="Documentation" aria-busy={catalog.isPending}>
      {catalog.isPending && (
        <Box sx={{ px: 2, py: 1 }}>
          {Array.from({ length: SKELETON_ROWS }, (_, index) => (
            <Skeleton key={index} variant="text" height={28} />
          ))}
        </Box>
      )}
      {catalog.isError && (
        <Box sx={{ px: 2, py: 1 }}>
          <CatalogError what="the documentation links" error={catalog.error} />
        </Box>
      )}
      {catalog.isSuccess && (
        <List>
          {catalog.data.documentationLinks.map((link, index) => (
            <DocumentationLinkItem key={`${index}-${link.url}`} link={link} />
          ))}
        </List>
      )}
    </Box>
  );
}

function DocumentationLinkItem({ link }: { link: DocumentationLink }) {
  // Paths are served by Assay itself (/docs); only other sites leave the app for a new tab.
  const external = /^https?:\/\//.test(link.url);
  const newTab = external ? { target: "_blank", rel: "noopener noreferrer" } : {};
  return (
    <ListItem disablePadding>
      <ListItemButton component="a" href={link.url} {...newTab}>
        <ListItemIcon sx={{ minWidth: 32 }}>
          <MenuBookOutlined fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={link.label} />
        {external && (
          <>
            <OpenInNew fontSize="inherit" aria-hidden sx={{ color: "text.secondary" }} />
            <Box component="span" sx={visuallyHidden}>
              (opens in a new tab)
            </Box>
          </>
        )}
      </ListItemButton>
    </ListItem>
  );
}

import Add from "@mui/icons-material/Add";
import OpenInNew from "@mui/icons-material/OpenInNew";
import Refresh from "@mui/icons-material/Refresh";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import type { BuildRegion } from "@assay/core";
import { SignedInButton } from "../../components/SignedInButton";
import { useCatalog } from "../../api/use-catalog";
import { BUILD_TABS, type BuildTab } from "../../components/builds-url";

export const TAB_LABEL: Record<BuildTab, string> = {
  frontend: "Frontend",
  backend: "Backend",
  load: "Load",
};

/** Spec section 2: New Build's label depends on the tab. */
export const NEW_BUILD_LABEL: Record<BuildTab, string> = {
  frontend: "New Build",
  backend: "New API Build",
  load: "New Load Build",
};

/** Spec section 2: the signed-in tooltip of New Build. */
export const CREATE_BUILD_HINT = "Create new build";

/**
 * The Builds header: the three tabs, the Frontend tab's US / CHINA switch, New Build (signed in
 * only), Refresh, and View Test Repo (the tab's repository, from the catalogue).
 */
export function BuildsToolbar({
  tab,
  region,
  refreshing,
  onTab,
  onRegion,
  onNewBuild,
  onRefresh,
}: {
  tab: BuildTab;
  region: BuildRegion;
  refreshing: boolean;
  onTab: (tab: BuildTab) => void;
  onRegion: (region: BuildRegion) => void;
  onNewBuild: () => void;
  onRefresh: () => void;
}) {
  const catalog = useCatalog();
  const repo = catalog.data?.testRepoLinks[tab];
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        flexWrap: "wrap",
        columnGap: 1.5,
        pl: 1,
        pr: 2,
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <Tabs
        value={BUILD_TABS.indexOf(tab)}
        onChange={(_event, index: number) => onTab(BUILD_TABS[index] ?? "frontend")}
        aria-label="Build families"
      >
        {BUILD_TABS.map((value) => (
          <Tab key={value} label={TAB_LABEL[value]} />
        ))}
      </Tabs>
      {tab === "frontend" && (
        <FormControlLabel
          sx={{ ml: 1 }}
          control={
            <Switch
              checked={region === "CHINA"}
              onChange={(event) => onRegion(event.target.checked ? "CHINA" : "US")}
              slotProps={{ input: { "aria-label": "China region" } }}
            />
          }
          label={
            <Typography component="span" sx={{ fontWeight: 600, minWidth: 52 }}>
              {region}
            </Typography>
          }
        />
      )}
      <Box sx={{ ml: "auto", display: "flex", gap: 1, alignItems: "center", py: 1 }}>
        <SignedInButton
          variant="contained"
          startIcon={<Add />}
          tooltip={CREATE_BUILD_HINT}
          onClick={onNewBuild}
        >
          {NEW_BUILD_LABEL[tab]}
        </SignedInButton>
        <Button
          variant="outlined"
          startIcon={<Refresh />}
          onClick={onRefresh}
          disabled={refreshing}
        >
          Refresh
        </Button>
        {repo ? (
          <Button
            variant="outlined"
            startIcon={<OpenInNew />}
            href={repo}
            target="_blank"
            rel="noopener noreferrer"
          >
            View Test Repo
          </Button>
        ) : (
          <Button variant="outlined" startIcon={<OpenInNew />} disabled>
            View Test Repo
          </Button>
        )}
      </Box>
    </Box>
  );
}

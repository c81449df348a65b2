import { DASHBOARD_PERIODS, DEFAULT_DASHBOARD_PERIOD, type DashboardPeriod } from "@assay/core";
import NewReleasesOutlined from "@mui/icons-material/NewReleasesOutlined";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { DailyRunsPanel } from "./DailyRunsPanel";

/** Heights of the two line charts (spec section 9: 500, and 400 for the second). */
const UI_CHART_HEIGHT = 500;
const API_CHART_HEIGHT = 400;

/** The landing page: how last night's daily runs went, UI and API (spec section 2 "Dashboard"). */
export function DashboardPage() {
  const [days, setDays] = useState<DashboardPeriod>(DEFAULT_DASHBOARD_PERIOD);
  return (
    <Stack sx={{ gap: 2 }}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1.5, justifyContent: "flex-end" }}>
        {/* Nora Releases is not in the sidebar (spec §2): it opens from here. */}
        <Button
          component={RouterLink}
          to="/releases"
          variant="outlined"
          size="small"
          startIcon={<NewReleasesOutlined />}
          sx={{ mr: "auto" }}
        >
          Nora Releases
        </Button>
        <Typography variant="body2" color="text.secondary" id="dashboard-period">
          Period
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={days}
          aria-labelledby="dashboard-period"
          onChange={(_event, value: DashboardPeriod | null) => {
            if (value !== null) setDays(value);
          }}
        >
          {DASHBOARD_PERIODS.map((period) => (
            <ToggleButton key={period} value={period}>
              {period} days
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      <DailyRunsPanel
        title="Daily UI Test Runs"
        family="frontend"
        height={UI_CHART_HEIGHT}
        days={days}
      />
      <DailyRunsPanel
        title="Daily Api Test Runs"
        family="backend"
        height={API_CHART_HEIGHT}
        days={days}
      />
    </Stack>
  );
}

import type { DailyEnv, DashboardPeriod } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { useState, type ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { DailyLineChart } from "./DailyLineChart";
import { PassRate } from "./PassRate";
import { RerunTable } from "./RerunTable";
import { useDailyChart, useRerunRuns, type DailyRunsFilter } from "./use-dashboard";

/** A switch between two labelled sides, as the spec names them (DEV / STAGE, GRAPH / TABLE). */
function TwoSided(props: {
  left: string;
  right: string;
  rightOn: boolean;
  onChange: (rightOn: boolean) => void;
  label: string;
}) {
  return (
    <Stack direction="row" sx={{ alignItems: "center" }}>
      <Typography variant="body2" sx={{ fontWeight: props.rightOn ? 400 : 700 }}>
        {props.left}
      </Typography>
      <Switch
        checked={props.rightOn}
        onChange={(event) => props.onChange(event.target.checked)}
        slotProps={{ input: { "aria-label": props.label } }}
      />
      <Typography variant="body2" sx={{ fontWeight: props.rightOn ? 700 : 400 }}>
        {props.right}
      </Typography>
    </Stack>
  );
}

function Failed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={retry}>
          Retry
        </Button>
      }
    >
      Could not load the daily runs: {message}
    </Alert>
  );
}

function NoDailyRuns({ executor, where }: { executor: string; where: string }) {
  return (
    <Alert severity="info" sx={{ my: 2 }}>
      No runs by the executor <strong>"{executor}"</strong> on {where} in this period. The chart
      counts only that executor's runs: schedule one on the{" "}
      <Link component={RouterLink} to="/settings">
        Daily Run Scheduler
      </Link>
      , or upload a report with <code>assay upload --executor "{executor}"</code>.
    </Alert>
  );
}

/**
 * One Dashboard card: 'Daily UI Test Runs' (frontend: platform radio) or 'Daily Api Test Runs'
 * (backend), with the DEV / STAGE and GRAPH / TABLE switches and the latest pass rate.
 */
export function DailyRunsPanel(props: {
  title: string;
  family: "frontend" | "backend";
  height: number;
  days: DashboardPeriod;
}) {
  const [platform, setPlatform] = useState<DailyRunsFilter["platform"]>("legacy");
  const [env, setEnv] = useState<DailyEnv>("dev");
  const [table, setTable] = useState(false);
  const filter: DailyRunsFilter = { family: props.family, platform, env, days: props.days };
  const chart = useDailyChart(filter, !table);
  const reruns = useRerunRuns(filter, table);
  const where = `${props.family === "frontend" ? (platform === "legacy" ? "Legacy " : "NextGen ") : ""}${env.toUpperCase()}`;

  let body: ReactNode;
  const query = table ? reruns : chart;
  if (query.isPending) body = <Skeleton variant="rounded" height={props.height} />;
  else if (query.isError)
    body = <Failed message={query.error.message} retry={() => void query.refetch()} />;
  else if (table && reruns.data)
    body = <RerunTable list={reruns.data} family={props.family} height={props.height} />;
  else if (chart.data && chart.data.days.every((d) => d.runs.length === 0))
    body = <NoDailyRuns executor={chart.data.executor} where={where} />;
  else if (chart.data)
    body = <DailyLineChart chart={chart.data} family={props.family} height={props.height} />;

  return (
    <Paper component="section" aria-label={props.title} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: "flex-start", gap: 2, flexWrap: "wrap" }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h6" component="h2">
            {props.title}
          </Typography>
          <Stack direction="row" sx={{ alignItems: "center", gap: 3, flexWrap: "wrap" }}>
            {props.family === "frontend" && (
              <RadioGroup
                row
                aria-label="Platform"
                value={platform}
                onChange={(event) => setPlatform(event.target.value as DailyRunsFilter["platform"])}
              >
                <FormControlLabel value="legacy" control={<Radio size="small" />} label="Legacy" />
                <FormControlLabel
                  value="nextGen"
                  control={<Radio size="small" />}
                  label="NextGen"
                />
              </RadioGroup>
            )}
            <TwoSided
              left="DEV"
              right="STAGE"
              label="DEV or STAGE"
              rightOn={env === "stage"}
              onChange={(stage) => setEnv(stage ? "stage" : "dev")}
            />
            <TwoSided
              left="GRAPH"
              right="TABLE"
              label="GRAPH or TABLE"
              rightOn={table}
              onChange={setTable}
            />
          </Stack>
        </Box>
        {!table && chart.data && <PassRate days={chart.data.days} />}
      </Stack>
      <Box sx={{ mt: 1, opacity: query.isPlaceholderData ? 0.6 : 1 }}>{body}</Box>
    </Paper>
  );
}

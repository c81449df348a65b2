import {
  DEFAULT_SETTING_PAGE_SIZE,
  SETTING_PAGE_SIZES,
  type Setting,
  type SettingBodyInput,
} from "@assay/core";
import Add from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useMemo, useState, type ReactNode } from "react";
import { SIGN_IN_HINT, useSignedIn } from "../../api/use-signed-in";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { NotifySection } from "../notify/NotifySection";
import { RetentionSection } from "../retention/RetentionSection";
import { SettingEditor } from "./SettingEditor";
import { SettingRow } from "./SettingRow";
import { templateSummary } from "./template-summary";
import { useSettingChanges, useSettings } from "./use-settings";

const COLUMNS = 6;

function FullRow({ children }: { children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={COLUMNS}>{children}</TableCell>
    </TableRow>
  );
}

/**
 * The Daily Run Scheduler (spec section 2): an editable table of settings, Name * sorted
 * ascending by default, 25 rows a page (25 or 50), rows added, edited and deleted in place.
 * Each setting is a schedule: when it runs, what it launches, its last build and next runs.
 */
export function DailyRunSchedulerPage() {
  const settings = useSettings();
  const { save, remove, runNow } = useSettingChanges();
  const signedIn = useSignedIn();
  const [editing, setEditing] = useState<number | "new" | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [starting, setStarting] = useState<Setting | null>(null);
  const [descending, setDescending] = useState(false);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_SETTING_PAGE_SIZE);

  const rows = useMemo(() => {
    const sorted = [...(settings.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    return descending ? sorted.reverse() : sorted;
  }, [settings.data, descending]);
  const shown = rows.slice(page * pageSize, (page + 1) * pageSize);

  const submit = (id: number | null, body: SettingBodyInput) =>
    save.mutate({ id, body }, { onSuccess: () => setEditing(null) });
  const editor = (setting: Setting | null) => (
    <FullRow key={setting ? `edit-${setting.id}` : "new"}>
      <SettingEditor
        setting={setting}
        saving={save.isPending}
        error={save.error?.message ?? null}
        onSave={(body) => submit(setting?.id ?? null, body)}
        onCancel={() => {
          save.reset();
          setEditing(null);
        }}
      />
    </FullRow>
  );

  let body: ReactNode;
  if (settings.isPending) {
    body = (
      <FullRow>
        <Skeleton variant="rounded" height={120} />
      </FullRow>
    );
  } else if (settings.isError) {
    body = (
      <FullRow>
        <Alert severity="error">Could not load the settings: {settings.error.message}</Alert>
      </FullRow>
    );
  } else {
    body = (
      <>
        {editing === "new" && editor(null)}
        {rows.length === 0 && editing !== "new" && (
          <FullRow>
            <Typography color="text.secondary" sx={{ py: 3, textAlign: "center" }}>
              No schedules yet. Add one to run a build every day.
            </Typography>
          </FullRow>
        )}
        {shown.map((setting) => {
          if (editing === setting.id) return editor(setting);
          if (deleting === setting.id) {
            return (
              <FullRow key={setting.id}>
                <Stack direction="row" sx={{ gap: 2, alignItems: "center" }}>
                  <Typography>
                    Delete "{setting.name}"? It will not run again; the builds it launched stay.
                  </Typography>
                  <Button
                    color="error"
                    variant="contained"
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(setting.id, { onSuccess: () => setDeleting(null) })
                    }
                  >
                    Delete
                  </Button>
                  <Button
                    onClick={() => {
                      remove.reset();
                      setDeleting(null);
                    }}
                  >
                    Cancel
                  </Button>
                  {remove.error && <Alert severity="error">{remove.error.message}</Alert>}
                </Stack>
              </FullRow>
            );
          }
          return (
            <SettingRow
              key={setting.id}
              setting={setting}
              signedIn={signedIn}
              busy={runNow.isPending && runNow.variables === setting.id}
              onEdit={() => {
                save.reset();
                setEditing(setting.id);
              }}
              onDelete={() => setDeleting(setting.id)}
              onRunNow={() => setStarting(setting)}
            />
          );
        })}
      </>
    );
  }

  return (
    <Stack sx={{ gap: 2 }}>
      <Paper sx={{ p: 2 }}>
        <Stack direction="row" sx={{ alignItems: "center", mb: 1, gap: 2 }}>
          <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
            Each active schedule launches its build on time under the daily robot's executor name,
            so its runs show on the Dashboard.
          </Typography>
          <Tooltip title={signedIn ? "Add a schedule" : SIGN_IN_HINT}>
            <span>
              <Button
                variant="contained"
                startIcon={<Add />}
                disabled={!signedIn || editing !== null}
                onClick={() => {
                  save.reset();
                  setEditing("new");
                }}
              >
                Add
              </Button>
            </span>
          </Tooltip>
        </Stack>
        <ConfirmDialog
          open={starting !== null}
          title={`Run “${starting?.name ?? ""}” now?`}
          confirmLabel="Run now"
          onCancel={() => setStarting(null)}
          onConfirm={() => {
            if (starting) runNow.mutate(starting.id);
            setStarting(null);
          }}
        >
          It starts its {templateSummary(starting?.template ?? null)} now, as the daily robot; its
          scheduled times stay as they are.
        </ConfirmDialog>
        {runNow.error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            Run now failed: {runNow.error.message}
          </Alert>
        )}
        <TableContainer>
          <Table size="small" aria-label="Daily Run Scheduler">
            <TableHead>
              <TableRow>
                <TableCell sortDirection={descending ? "desc" : "asc"}>
                  <TableSortLabel
                    active
                    direction={descending ? "desc" : "asc"}
                    onClick={() => setDescending(!descending)}
                  >
                    Name *
                  </TableSortLabel>
                </TableCell>
                <TableCell>Description</TableCell>
                <TableCell>Is Active</TableCell>
                <TableCell>Schedule</TableCell>
                <TableCell>Last build</TableCell>
                <TableCell>Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>{body}</TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={rows.length}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...SETTING_PAGE_SIZES]}
          onPageChange={(_event, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(0);
          }}
        />
      </Paper>
      <NotifySection />
      <RetentionSection />
    </Stack>
  );
}

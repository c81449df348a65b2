import type { RunHistoryEntry } from "@assay/core";
import { styled } from "@mui/material/styles";
import { Link as RouterLink } from "react-router";
import { HISTORY_LOOK } from "../../../components/StatusLabel";
import { Glyph } from "./glyphs";

const Icons = styled("span")(({ theme }) => ({
  display: "inline-flex",
  alignItems: "center",
  gap: 2,
  "& .hi-item": { lineHeight: 0, borderRadius: "50%" },
  "& .hi-current": { outline: `1px solid ${theme.palette.divider}`, outlineOffset: 1 },
  "& svg": { fontSize: 16, display: "block" },
  "& [data-status=passed]": { color: theme.palette.status.passed },
  "& [data-status=failed]": { color: theme.palette.status.failed },
  "& [data-status=other]": { color: theme.palette.status.skipped },
}));

const Placeholder = styled("span")(({ theme }) => ({
  display: "inline-block",
  width: 88,
  height: 16,
  borderRadius: 8,
  backgroundColor: theme.palette.action.hover,
}));

function describe(entry: RunHistoryEntry): string {
  const { label } = HISTORY_LOOK[entry.status];
  return `${label} on ${entry.date ?? "an unknown day"} in run ${entry.test_run_key}`;
}

/**
 * The test's recent results as icons, newest first: this run's first (outlined), then the
 * runs before it, each linking to that result. Titles, not tooltips: dozens render at once.
 */
export function HistoryIcons({
  entries,
  loading,
  runKey,
}: {
  entries: readonly RunHistoryEntry[] | undefined;
  loading: boolean;
  runKey: string;
}) {
  if (loading) return <Placeholder aria-hidden />;
  if (!entries || entries.length === 0) return null;
  return (
    <Icons role="list" aria-label="Recent results">
      {entries.map((entry) => {
        const glyph = entry.status === "other" ? "skipped" : entry.status;
        const label = describe(entry);
        const key = `${entry.test_run_key}/${entry.test_run_test_id}`;
        if (entry.test_run_key === runKey) {
          return (
            <span key={key} role="listitem" className="hi-item hi-current">
              <span role="img" aria-label={`${label} (this run)`} title={`${label} (this run)`}>
                <Glyph name={glyph} status={entry.status} />
              </span>
            </span>
          );
        }
        const to = `/test_runs/${encodeURIComponent(entry.test_run_key)}/${encodeURIComponent(entry.test_run_test_id)}`;
        return (
          <span key={key} role="listitem" className="hi-item">
            <RouterLink to={to} aria-label={label} title={label}>
              <Glyph name={glyph} status={entry.status} />
            </RouterLink>
          </span>
        );
      })}
    </Icons>
  );
}

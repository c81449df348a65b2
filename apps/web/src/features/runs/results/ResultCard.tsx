import { formatDuration, type FrontendViewResult, type RunHistoryEntry } from "@assay/core";
import Chip from "@mui/material/Chip";
import { memo } from "react";
import { Link as RouterLink } from "react-router";
import { objectUrl } from "../../../api/object-url";
import { STATUS_LOOK } from "../../../components/StatusLabel";
import { CardRoot } from "./card-styles";
import { Glyph } from "./glyphs";
import { ErrorBlock } from "../../../components/ErrorBlock";
import { HistoryIcons } from "./HistoryIcons";
import { ResultTags } from "./ResultTags";
import { ResultCause } from "../../triage/ResultCause";

/** What every card of a run shares; one object, so that memoized cards compare it once. */
export interface CardSettings {
  runKey: string;
  ticketPattern: string;
  /** Base URL of ticket links; absent while the catalogue loads. */
  trackerUrl: string | undefined;
  /** Tags that only carry a test id are not shown as chips. */
  isIdTag: (tag: string) => boolean;
  /** The dynamic tags a test is in (GET /v1/dtag), by name. */
  dynamicTagsOf: (testId: number) => string[];
  onDetails: (testKey: string) => void;
}

export interface ResultCardProps {
  result: FrontendViewResult;
  history: readonly RunHistoryEntry[] | undefined;
  historyLoading: boolean;
  settings: CardSettings;
}

function Thumbnail({ result, onOpen }: { result: FrontendViewResult; onOpen: () => void }) {
  if (!result.screenshot) {
    return (
      <div className="rc-noshot">
        <Glyph name="noImage" />
        No screenshot
      </div>
    );
  }
  return (
    <button
      type="button"
      className="rc-thumb"
      onClick={onOpen}
      aria-label={`Open the details of TC${result.test_id}`}
    >
      <img
        src={objectUrl(result.screenshot)}
        alt={`Last screenshot of TC${result.test_id}`}
        loading="lazy"
        width={144}
        height={90}
      />
    </button>
  );
}

function Meta({ label, value, title }: { label: string; value: string | null; title?: string }) {
  return (
    <span className="rc-meta" title={title}>
      <span className="rc-label">{label}:</span> {value ?? "–"}
    </span>
  );
}

/**
 * One result of the Frontend results dialog: screenshot, TC id, status, recent history, title,
 * scenario, duration, where it ran, the failure with its tickets (or the pending reason), tags,
 * and the History and Details buttons. Every text from the report renders as text.
 */
export const ResultCard = memo(function ResultCard(props: ResultCardProps) {
  const { result, settings } = props;
  const openDetails = () => settings.onDetails(result.test_run_test_id);
  const failed = result.derived_status === "failed" || result.derived_status === "unstable";
  const { label } = STATUS_LOOK[result.derived_status];
  return (
    <CardRoot aria-label={`TC${result.test_id} ${result.title ?? result.name}`}>
      <Thumbnail result={result} onOpen={openDetails} />
      <div className="rc-main">
        <div className="rc-row">
          <span className="rc-id">TC{result.test_id}</span>
          <span className="rc-status" data-status={result.derived_status}>
            <Glyph name={result.derived_status} />
            {label}
          </span>
          {result.flaky && <Chip label="Flaky: passed on a retry" size="small" color="warning" />}
          <HistoryIcons
            entries={props.history}
            loading={props.historyLoading}
            runKey={settings.runKey}
          />
          <span className="rc-duration" title="Duration">
            {formatDuration(result.duration_ms)}
          </span>
          <span className="rc-actions">
            <RouterLink className="rc-button" to={`/history/${result.test_id}`}>
              <Glyph name="history" />
              History
            </RouterLink>
            <button type="button" className="rc-button rc-primary" onClick={openDetails}>
              <Glyph name="openInNew" />
              Details
            </button>
          </span>
        </div>
        <h3 className="rc-title">
          {result.title ?? result.name}
          {result.scenario && <span className="rc-scenario"> — {result.scenario}</span>}
        </h3>
        <div className="rc-row">
          <Meta label="Site" value={result.nora_site} />
          <Meta label="Chrome" value={result.chrome_version} />
          <Meta label="Platform" value={result.platform} />
          <Meta
            label="Commit"
            value={result.commit_hash?.slice(0, 10) ?? null}
            title={result.commit_hash ?? undefined}
          />
          <ResultTags
            testId={result.test_id}
            testName={result.title ?? result.name}
            reportTags={result.tags.filter((tag) => !settings.isIdTag(tag))}
            dynamicTags={settings.dynamicTagsOf(result.test_id)}
          />
        </div>
        {failed && result.error_message && (
          <ErrorBlock
            // The run view cuts a long message: the whole of it is in Details.
            message={result.error_cut ? `${result.error_message}…` : result.error_message}
            cut={result.error_cut}
            tickets={result.tickets}
            pattern={settings.ticketPattern}
            trackerUrl={settings.trackerUrl}
          />
        )}
        {failed && <ResultCause runKey={settings.runKey} resultId={result.id} />}
        {result.derived_status === "skipped" && (
          <div className="rc-pending">
            <Glyph name="skipped" />
            Pending: {result.pending_reason || "no reason given"}
          </div>
        )}
      </div>
    </CardRoot>
  );
});

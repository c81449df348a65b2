import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Typography from "@mui/material/Typography";
import { Fragment, useState } from "react";
import { Link as RouterLink } from "react-router";
import { useCatalog } from "../../api/use-catalog";
import { SignedInButton } from "../../components/SignedInButton";
import { TicketLink } from "../../components/TicketText";
import { DefectChip, defectLabel } from "./DefectChip";
import { DefectDialog } from "./DefectDialog";
import { daysAgo } from "./time-ago";
import { useCardCause, useSetDefect, type CardCause } from "./use-triage";

const small = { py: 0, minHeight: 0, fontSize: 12 } as const;

/**
 * Setting a type from a card: for all the failures of its cause in this run (one action for the
 * group) or for this result alone; an automatic decision is accepted as it is in one click.
 */
function CauseActions({
  runKey,
  resultId,
  card,
}: { runKey: string; resultId: number } & { card: CardCause }) {
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<"group" | "result">("group");
  const accept = useSetDefect();
  const { group, cause } = card;
  const groupPath = `/v1/runs/${encodeURIComponent(runKey)}/failure-groups/${group.id}/defect`;
  const resultPath = `/v1/results/${resultId}/defect`;
  return (
    <>
      {cause.auto && (
        <SignedInButton
          size="small"
          sx={small}
          tooltip={`Record ${defectLabel(cause.type)} as your decision on this failure`}
          disabled={accept.isPending}
          onClick={() =>
            accept.mutate({
              path: resultPath,
              body: { type: cause.type, comment: cause.comment, bugs: cause.bugs },
            })
          }
        >
          Accept
        </SignedInButton>
      )}
      <SignedInButton size="small" sx={small} onClick={() => setOpen(true)}>
        Set type
      </SignedInButton>
      {accept.isError && (
        <Typography variant="caption" color="error">
          {accept.error.message}
        </Typography>
      )}
      {open && (
        <DefectDialog
          open
          onClose={() => setOpen(false)}
          title="Set the defect type"
          note={`Cause: ${group.errorType}: ${group.message || "(no message)"}`}
          path={scope === "group" ? groupPath : resultPath}
          submitLabel={scope === "group" ? `Set for all ${group.count}` : "Set for this result"}
        >
          <RadioGroup
            aria-label="What the type is for"
            value={scope}
            onChange={(event) => setScope(event.target.value as "group" | "result")}
          >
            <FormControlLabel
              value="group"
              control={<Radio size="small" />}
              label={`All ${group.count} failure${group.count === 1 ? "" : "s"} of this cause in this run`}
            />
            <FormControlLabel
              value="result"
              control={<Radio size="small" />}
              label="Only this result"
            />
          </RadioGroup>
        </DefectDialog>
      )}
    </>
  );
}

/**
 * A failed result's cause on its card: its defect type with the decision's bugs, and its group ("same cause as 12 others
 * in this run; first seen 3 days ago in run X"), and setting its type. Nothing for a result
 * triage has not grouped.
 */
export function ResultCause({ runKey, resultId }: { runKey: string; resultId: number }) {
  const card = useCardCause(runKey, resultId);
  const trackerUrl = useCatalog().data?.issueTrackerUrl;
  if (!card) return null;
  const { group, cause } = card;
  const others = group.count - 1;
  const first = group.isNew
    ? "first seen in this run"
    : `first seen ${daysAgo(group.firstSeen.at)}${group.firstSeen.runKey ? ` in run ${group.firstSeen.runKey}` : ""}`;
  return (
    <Box
      sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", mt: 0.5 }}
      data-testid="result-cause"
    >
      <DefectChip type={cause.type} auto={cause.auto} />
      {cause.bugs.length > 0 && (
        <Typography variant="caption" aria-label="Bugs of the decision">
          {cause.bugs.map((bug, i) => (
            <Fragment key={bug}>
              {i > 0 && ", "}
              <TicketLink ticket={bug} trackerUrl={trackerUrl} />
            </Fragment>
          ))}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary">
        {others > 0
          ? `Same cause as ${others} other${others === 1 ? "" : "s"} in this run`
          : "Only failure of its cause in this run"}
        {"; "}
        {first}
        {group.isRegression && " (regression: back after a pause)"}
        {" · "}
        <Link component={RouterLink} to={`/failures/${group.id}`}>
          cause
        </Link>
      </Typography>
      <CauseActions runKey={runKey} resultId={resultId} card={card} />
    </Box>
  );
}

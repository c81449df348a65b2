import type { BackendViewResult } from "@assay/core";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import { onListKeys } from "../view/list-keys";
import { UNMEASURED_LIST, useRowsInFlow } from "../view/list-layout";
import { rowKeyOf } from "../view/pages";
import { BackendResultRow } from "./BackendResultRow";

// A row is 58 px high closed; the real height is measured once it renders.
const ROW_ESTIMATE = 58;

/**
 * The results, virtualized: a run of 100,000 API tests renders only the rows in view, and only
 * the pages scrolled to are fetched (rows not loaded yet show as placeholders). Rows are
 * measured, since an expanded one is as tall as its log and script.
 */
export function BackendResultList({
  runKey,
  count,
  rowAt,
  onRowsShown,
  resetKey,
  repositoryUrl,
  initialExpanded,
  linkedIndex,
}: {
  runKey: string;
  /** Results the filters keep: the list is this long, though not all are loaded yet. */
  count: number;
  /** The result at an index of the filtered list, if its page is loaded. */
  rowAt: (index: number) => BackendViewResult | undefined;
  /** Called with the first and last index on screen: the pages of those rows load. */
  onRowsShown: (firstIndex: number, lastIndex: number) => void;
  /** Changes when the filters do: the list then starts again at its top. */
  resetKey: string;
  repositoryUrl: string | undefined;
  /** test_run_test_id of a result to open and scroll to, e.g. from a shared link. */
  initialExpanded?: string;
  /** Its index in the filtered list, as the server found it; null when it is not there. */
  linkedIndex: number | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set(initialExpanded ? [initialExpanded] : []),
  );
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    initialRect: UNMEASURED_LIST,
    getItemKey: useMemo(() => rowKeyOf(rowAt), [rowAt]),
  });

  useEffect(() => {
    // Only when scrolled: asking the virtualizer to scroll reads the list's layout. Without it a
    // shorter list would open at its end, where the list was.
    if (scrollRef.current?.scrollTop) virtualizer.scrollToOffset(0);
  }, [resetKey, virtualizer]);

  // Once, when the linked result is first known: later scrolling is the engineer's.
  const scrolledToLink = useRef(false);
  useEffect(() => {
    if (scrolledToLink.current || linkedIndex === null) return;
    scrolledToLink.current = true;
    virtualizer.scrollToIndex(linkedIndex, { align: "start" });
  }, [linkedIndex, virtualizer]);

  const inFlow = useRowsInFlow();
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? -1;
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= 0) onRowsShown(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, onRowsShown]);

  if (count === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        No results to show.
      </Typography>
    );
  }

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Box
      ref={scrollRef}
      role="feed"
      aria-label="Results"
      aria-busy={items.some((item) => !rowAt(item.index))}
      onKeyDown={onListKeys(virtualizer, count)}
      sx={{
        flex: 1,
        minHeight: 0,
        overflow: "auto",
        border: 1,
        borderColor: "divider",
        borderRadius: 1,
      }}
    >
      <Box sx={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {items.map((item) => {
          const result = rowAt(item.index);
          return (
            <Box
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              sx={{ position: "absolute", top: 0, left: 0, width: "100%" }}
              style={
                inFlow ? { position: "relative" } : { transform: `translateY(${item.start}px)` }
              }
            >
              {result ? (
                <BackendResultRow
                  runKey={runKey}
                  result={result}
                  expanded={expanded.has(result.test_run_test_id)}
                  onToggle={() => toggle(result.test_run_test_id)}
                  repositoryUrl={repositoryUrl}
                />
              ) : (
                <Skeleton variant="rectangular" height={ROW_ESTIMATE - 1} sx={{ mb: "1px" }} />
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

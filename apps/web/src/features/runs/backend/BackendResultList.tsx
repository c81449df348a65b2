import type { BackendResult } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import { BackendResultRow } from "./BackendResultRow";

const ROW_ESTIMATE = 52;

/**
 * The results, virtualized: a run of thousands of API tests renders only the rows in view.
 * Rows are measured, since an expanded one is as tall as its log and script.
 */
export function BackendResultList({
  results,
  repositoryUrl,
  initialExpanded,
}: {
  results: readonly BackendResult[];
  repositoryUrl: string | undefined;
  /** test_run_test_id of a result to open and scroll to, e.g. from a shared link. */
  initialExpanded?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set(initialExpanded ? [initialExpanded] : []),
  );
  const virtualizer = useVirtualizer({
    count: results.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    getItemKey: (index) => results[index]?.id ?? index,
  });

  const linkedIndex = initialExpanded
    ? results.findIndex((result) => result.test_run_test_id === initialExpanded)
    : -1;
  // Once, when the linked result first appears: later scrolling is the engineer's.
  const scrolledToLink = useRef(false);
  useEffect(() => {
    if (scrolledToLink.current || linkedIndex < 0) return;
    scrolledToLink.current = true;
    virtualizer.scrollToIndex(linkedIndex, { align: "start" });
  }, [linkedIndex, virtualizer]);

  if (results.length === 0) {
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
        {virtualizer.getVirtualItems().map((item) => {
          const result = results[item.index];
          if (!result) return null;
          return (
            <Box
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              sx={{ position: "absolute", top: 0, left: 0, width: "100%" }}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <BackendResultRow
                result={result}
                expanded={expanded.has(result.test_run_test_id)}
                onToggle={() => toggle(result.test_run_test_id)}
                repositoryUrl={repositoryUrl}
              />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

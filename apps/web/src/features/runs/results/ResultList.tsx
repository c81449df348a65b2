import type { FrontendResult, RunHistory } from "@assay/core";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { ResultCard, type CardSettings } from "./ResultCard";

// A card without an error is about 150 px high; the real height is measured once it renders.
const ESTIMATED_CARD_HEIGHT = 160;
const GAP = 8;

export interface ResultListProps {
  results: readonly FrontendResult[];
  history: RunHistory | undefined;
  historyLoading: boolean;
  settings: CardSettings;
  /** Said in place of the list when no result is left. */
  emptyMessage: string;
  /** Changes when the filters do: the list then starts again at its top. */
  resetKey: string;
}

/**
 * The results as cards in a virtualized list: only the cards in view (and a few around them)
 * are in the page, so a run of 10,000 results opens and scrolls like one of ten.
 */
export function ResultList(props: ResultListProps) {
  const { results } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual keeps its own mutable state: the React Compiler lint (incompatible-library)
  // warns that it leaves this component unmemoized, which is what it needs.
  const virtualizer = useVirtualizer({
    count: results.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    getItemKey: (index) => results[index]?.id ?? index,
    overscan: 4,
    gap: GAP,
  });

  useEffect(() => {
    // Only when scrolled: asking the virtualizer to scroll reads the list's layout.
    if (scrollRef.current?.scrollTop) virtualizer.scrollToOffset(0);
  }, [props.resetKey, virtualizer]);

  if (results.length === 0) {
    return (
      <Box sx={{ flex: 1, display: "grid", placeItems: "center", color: "text.secondary" }}>
        <Typography>{props.emptyMessage}</Typography>
      </Box>
    );
  }
  return (
    <Box
      ref={scrollRef}
      role="feed"
      aria-label="Results"
      tabIndex={0}
      sx={{ flex: 1, minHeight: 0, overflow: "auto", contain: "strict" }}
    >
      {/* Sizes change with every filter: inline styles, not new emotion classes each time. */}
      <Box sx={{ position: "relative" }} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const result = results[item.index];
          if (!result) return null;
          return (
            <Box
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              sx={{ position: "absolute", top: 0, left: 0, right: 8 }}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <ResultCard
                result={result}
                history={props.history?.[result.test_id]}
                historyLoading={props.historyLoading}
                settings={props.settings}
              />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

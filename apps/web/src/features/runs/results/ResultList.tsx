import type { FrontendViewResult, RunHistory } from "@assay/core";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef } from "react";
import { onListKeys } from "../view/list-keys";
import { UNMEASURED_LIST, useRowsInFlow } from "../view/list-layout";
import { rowKeyOf } from "../view/pages";
import { ResultCard, type CardSettings } from "./ResultCard";

// A card without an error is 116 px high; the real height is measured once it renders.
const ESTIMATED_CARD_HEIGHT = 116;
const GAP = 8;

export interface ResultListProps {
  /** Results the filters keep: the list is this long, though not all are loaded yet. */
  count: number;
  /** The result at an index of the filtered list, if its page is loaded. */
  rowAt: (index: number) => FrontendViewResult | undefined;
  /** Called with the first and last index on screen: the pages of those rows load. */
  onRowsShown: (firstIndex: number, lastIndex: number) => void;
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
 * are in the page, and only the pages of results scrolled to are fetched, so a run of 100,000
 * results opens and scrolls like one of ten. Rows not loaded yet show as placeholders.
 */
export function ResultList(props: ResultListProps) {
  const { rowAt, count, onRowsShown } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual keeps its own mutable state: the React Compiler lint (incompatible-library)
  // warns that it leaves this component unmemoized, which is what it needs.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    getItemKey: useMemo(() => rowKeyOf(rowAt), [rowAt]),
    overscan: 4,
    gap: GAP,
    initialRect: UNMEASURED_LIST,
  });

  useEffect(() => {
    // Only when scrolled: asking the virtualizer to scroll reads the list's layout.
    if (scrollRef.current?.scrollTop) virtualizer.scrollToOffset(0);
  }, [props.resetKey, virtualizer]);

  const inFlow = useRowsInFlow();
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? -1;
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= 0) onRowsShown(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, onRowsShown]);

  if (count === 0) {
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
      aria-busy={items.some((item) => !rowAt(item.index))}
      onKeyDown={onListKeys(virtualizer, count)}
      tabIndex={0}
      sx={{ flex: 1, minHeight: 0, overflow: "auto", contain: "strict" }}
    >
      {/* Sizes change with every filter: inline styles, not new emotion classes each time. */}
      <Box sx={{ position: "relative" }} style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const result = rowAt(item.index);
          return (
            <Box
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              sx={{ position: "absolute", top: 0, left: 0, right: 8 }}
              style={
                inFlow
                  ? { position: "relative", marginRight: 8, marginBottom: GAP }
                  : { transform: `translateY(${item.start}px)` }
              }
            >
              {result ? (
                <ResultCard
                  result={result}
                  history={props.history?.[result.test_id]}
                  historyLoading={props.historyLoading}
                  settings={props.settings}
                />
              ) : (
                <Skeleton variant="rounded" height={ESTIMATED_CARD_HEIGHT - GAP} />
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

/**
 * How the results dialogs cut a filtered list into pages of the run view: page 0 is the first
 * FIRST_PAGE_ROWS rows (it comes with the run, counts and Failed Summary, so it is small: the
 * first screen waits for it); page p >= 1 is the p-th NEXT_PAGE_ROWS rows after them. A row's
 * page is fixed, so the list can ask for the pages of the rows it shows, wherever they are.
 */

/** The first page fills a tall screen of backend rows; later ones are larger, fewer requests. */
export const FIRST_PAGE_ROWS = 60;
export const NEXT_PAGE_ROWS = 300;
/** Rows past those shown whose page loads too, so that scrolling on finds them loaded. */
export const MARGIN_ROWS = 40;

export function pageOfIndex(index: number): number {
  return index < FIRST_PAGE_ROWS ? 0 : 1 + Math.floor((index - FIRST_PAGE_ROWS) / NEXT_PAGE_ROWS);
}

export function pageOffset(page: number): number {
  return page === 0 ? 0 : FIRST_PAGE_ROWS + (page - 1) * NEXT_PAGE_ROWS;
}

/**
 * The later pages (page 0 is always there) holding rows firstIndex..lastIndex of a list of
 * `shown` rows, and MARGIN_ROWS either side: at most three pages, whatever the list's length.
 */
export function pagesAround(firstIndex: number, lastIndex: number, shown: number): number[] {
  const from = pageOfIndex(Math.max(0, firstIndex - MARGIN_ROWS));
  const to = pageOfIndex(Math.min(shown - 1, lastIndex + MARGIN_ROWS));
  const pages: number[] = [];
  for (let page = Math.max(1, from); page <= to; page++) pages.push(page);
  return pages;
}

/**
 * The virtual list's key of row `index`: its result's id once its page is in, else a negative
 * number (ids are positive). A number, not a string made per call, and the same function until a
 * page comes in: the virtualizer works out every row's place again whenever its key function
 * changes, 100,000 rows a time on a big run, and a new function each render, making a string per
 * row, made a Hide switch there take a quarter of a second.
 */
export function rowKeyOf(rowAt: (index: number) => { id: number } | undefined) {
  return (index: number): number => rowAt(index)?.id ?? -1 - index;
}

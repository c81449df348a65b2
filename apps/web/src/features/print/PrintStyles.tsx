import GlobalStyles from "@mui/material/GlobalStyles";

/**
 * The print stylesheet of the print view: white paper, no screen-only controls, and no
 * screenshot split across two pages (its caption stays with it).
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        "@media print": {
          // Inside @media print, where it applies anyway: jsdom's cascade chokes on a top-level @page.
          "@page": { margin: "12mm" },
          body: { backgroundColor: "#fff" },
          main: { padding: "0 !important" },
          "[data-print-figure]": { breakInside: "avoid", pageBreakInside: "avoid" },
          // Two screenshots with their steps fit on an A4 page.
          "[data-print-figure] img": { maxHeight: "105mm", width: "auto", maxWidth: "100%" },
          "[data-print-steps] li": { breakInside: "avoid" },
          // A screenshot and the steps that led to it share a page when they fit on one.
          "[data-print-group]": { breakInside: "avoid", pageBreakInside: "avoid" },
          "[data-print-heading]": { breakAfter: "avoid", pageBreakAfter: "avoid" },
        },
      }}
    />
  );
}

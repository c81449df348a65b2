import { styled } from "@mui/material/styles";
import { useState } from "react";
import { TagEditor } from "../../tags/TagEditor";
import { Glyph } from "./glyphs";

const Tags = styled("span")(({ theme }) => ({
  display: "inline-flex",
  alignItems: "center",
  flexWrap: "wrap",
  gap: 4,
  "& ul": {
    display: "inline-flex",
    flexWrap: "wrap",
    gap: 4,
    margin: 0,
    padding: 0,
    listStyle: "none",
  },
  "& li": {
    height: 20,
    padding: "0 8px",
    borderRadius: 10,
    fontSize: 11,
    lineHeight: "18px",
    border: `1px solid ${theme.palette.divider}`,
    whiteSpace: "nowrap",
  },
  "& .rt-dynamic li": {
    borderColor: theme.palette.primary.main,
    backgroundColor: theme.palette.primary.main,
    color: theme.palette.primary.contrastText,
  },
  "& .rt-edit": {
    display: "inline-grid",
    placeItems: "center",
    width: 22,
    height: 22,
    padding: 0,
    border: 0,
    borderRadius: "50%",
    background: "none",
    color: theme.palette.text.secondary,
    cursor: "pointer",
    "&:hover": { backgroundColor: theme.palette.action.hover },
    "&:focus-visible": { outline: `2px solid ${theme.palette.primary.main}` },
    "& svg": { fontSize: 16 },
  },
}));

/**
 * A result's tags: the report's own (outlined) and the test's dynamic tags (filled), with a
 * button that opens the per-result tag editor of the Dynamic Tags screen in place. The editor
 * mounts on demand: a field with suggestions in each of the virtualized cards would slow the
 * list for a feature used on a few of them.
 */
export function ResultTags({
  testId,
  testName,
  reportTags,
  dynamicTags,
}: {
  testId: number;
  testName: string;
  reportTags: readonly string[];
  dynamicTags: readonly string[];
}) {
  const [editing, setEditing] = useState(false);
  const label = editing ? `Close the tag editor of TC${testId}` : `Edit tags of TC${testId}`;
  return (
    <Tags>
      {reportTags.length > 0 && (
        <ul aria-label="Report tags">
          {reportTags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      {editing ? (
        <TagEditor testId={testId} testName={testName} tags={[...dynamicTags]} />
      ) : (
        dynamicTags.length > 0 && (
          <ul aria-label="Dynamic tags" className="rt-dynamic">
            {dynamicTags.map((tag) => (
              <li key={tag}>{tag}</li>
            ))}
          </ul>
        )
      )}
      <button
        type="button"
        className="rt-edit"
        aria-label={label}
        aria-pressed={editing}
        title={editing ? "Close the tag editor" : "Edit dynamic tags"}
        onClick={() => setEditing(!editing)}
      >
        <Glyph name="tag" />
      </button>
    </Tags>
  );
}

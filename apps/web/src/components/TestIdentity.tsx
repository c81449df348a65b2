import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

/** "Login › Patient › Patient login": the suites a test sits in, then its own name. */
export function suiteTitle(suitePath: readonly string[], name: string): string {
  // A report that repeats the test's name as its innermost suite would show it twice.
  const suites = suitePath.at(-1) === name ? suitePath.slice(0, -1) : suitePath;
  return [...suites, name].join(" › ");
}

/**
 * A test as a list shows it when names repeat (sixteen "Patient login"s under one requirement):
 * the suite path before its name, and its file under it, so same-named tests are told apart.
 */
export function TestIdentity({
  name,
  suitePath,
  file,
}: {
  name: string;
  suitePath: readonly string[];
  file: string | null;
}) {
  const suites = suitePath.at(-1) === name ? suitePath.slice(0, -1) : suitePath;
  return (
    <Box component="span" sx={{ display: "inline-flex", flexDirection: "column", minWidth: 0 }}>
      <span>
        {suites.length > 0 && (
          <Box component="span" sx={{ color: "text.secondary" }}>
            {suites.join(" › ")} ›{" "}
          </Box>
        )}
        {name}
      </span>
      {file && (
        <Typography
          component="span"
          variant="caption"
          color="text.secondary"
          sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}
        >
          {file}
        </Typography>
      )}
    </Box>
  );
}

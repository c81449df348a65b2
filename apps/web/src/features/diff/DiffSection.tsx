import { formatTestTime, type DiffTest, type SlowerTest } from "@assay/core";
import ExpandMore from "@mui/icons-material/ExpandMore";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useState } from "react";
import { Link as RouterLink } from "react-router";

/** Rows shown before "Show all": a 14,000-test run's sections can hold thousands. */
const FIRST_ROWS = 200;

export interface DiffSectionProps {
  id: string;
  title: string;
  /** What the section holds, in words. */
  hint: string;
  /** The section's sign: an icon with its colour (never colour alone). */
  icon: ReactNode;
  tests: readonly (DiffTest | SlowerTest)[];
  /** Where a test's name leads: its result in the run it is listed from. */
  resultHref: (test: DiffTest) => string;
  defaultExpanded: boolean;
}

const isSlower = (test: DiffTest | SlowerTest): test is SlowerTest => "durationB" in test;

function TestRow({ test, href }: { test: DiffTest | SlowerTest; href: string }) {
  return (
    <Box
      component="li"
      sx={{
        display: "grid",
        gridTemplateColumns: "1fr auto auto",
        gap: 2,
        py: 0.5,
        borderBottom: 1,
        borderColor: "divider",
        alignItems: "baseline",
      }}
    >
      <Link component={RouterLink} to={href} underline="hover" sx={{ overflowWrap: "anywhere" }}>
        {test.name}
      </Link>
      <Typography
        variant="body2"
        sx={{ fontVariantNumeric: "tabular-nums", textAlign: "right" }}
        title={isSlower(test) ? `${test.durationA} ms → ${test.durationB} ms` : undefined}
      >
        {isSlower(test)
          ? `${formatTestTime(test.durationA)} → ${formatTestTime(test.durationB)} (+${formatTestTime(test.durationB - test.durationA)})`
          : ""}
      </Typography>
      <Link
        component={RouterLink}
        to={`/history/${test.testId}`}
        variant="body2"
        color="text.secondary"
        title="The test's history"
      >
        TC{test.testId}
      </Link>
    </Box>
  );
}

/** One section of the diff: its count in the summary line, its tests (linked) when opened. */
export function DiffSection(props: DiffSectionProps) {
  const [all, setAll] = useState(false);
  const { tests } = props;
  const shown = all ? tests : tests.slice(0, FIRST_ROWS);
  return (
    <Accordion
      disableGutters
      defaultExpanded={props.defaultExpanded && tests.length > 0}
      disabled={tests.length === 0}
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary
        expandIcon={<ExpandMore />}
        aria-controls={`${props.id}-tests`}
        id={`${props.id}-summary`}
      >
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          {props.icon}
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {props.title}
          </Typography>
          <Typography
            component="span"
            sx={{ fontWeight: 600, fontVariantNumeric: "tabular-nums" }}
            aria-label={`${tests.length} tests`}
          >
            {tests.length.toLocaleString("en-US")}
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary">
            {props.hint}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails id={`${props.id}-tests`}>
        <Box component="ul" sx={{ listStyle: "none", m: 0, p: 0 }} aria-label={props.title}>
          {shown.map((test) => (
            <TestRow key={test.testId} test={test} href={props.resultHref(test)} />
          ))}
        </Box>
        {shown.length < tests.length && (
          <Button size="small" onClick={() => setAll(true)} sx={{ mt: 1 }}>
            Show all {tests.length.toLocaleString("en-US")}
          </Button>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

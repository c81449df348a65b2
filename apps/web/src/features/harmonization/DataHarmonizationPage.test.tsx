import { DH_FETCH_ERROR, dhTotals, type DhRun } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { DataHarmonizationPage } from "./DataHarmonizationPage";

const LEGACY_DEV = {
  value: "legacy-dev",
  alias: "Legacy Dev",
  active: true,
  envType: "dev",
  demo: false,
};

function fhirRun(): DhRun {
  const rows = [
    {
      id: 0,
      entity: "Patient",
      status: "Success",
      fhirCount: 5,
      fhirLiteCount: 5,
      docdbCount: 5,
      redshiftCount: 5,
      files: [],
    },
    {
      id: 1,
      entity: "Observation",
      status: "Count Error",
      fhirCount: 9,
      fhirLiteCount: 8,
      docdbCount: 9,
      redshiftCount: 9,
    },
  ];
  return {
    id: 7,
    platform: "nextGen",
    type: "noSql",
    envType: "dev",
    env: "nextgen-fhir-dev",
    schema: null,
    kind: "fhir",
    state: "done",
    error: null,
    demo: false,
    startedBy: "qa@example.com",
    createdAt: "2026-11-26T08:00:00.000Z",
    finishedAt: "2026-11-26T08:00:05.000Z",
    totals: dhTotals(rows),
    rows,
  };
}

/** The select whose label is `label` (MUI labels the combobox with label and value). */
const select = (label: string) =>
  screen.getAllByRole("combobox").find((c) =>
    c
      .getAttribute("aria-labelledby")
      ?.split(" ")
      .some((id) => document.getElementById(id)?.textContent === label),
  );

async function choose(label: string, option: string) {
  const user = userEvent.setup();
  // Selectors are disabled while fetching (spec section 2): wait until they are usable.
  const box = await waitFor(
    () => {
      const found = select(label);
      if (!found || found.getAttribute("aria-disabled") === "true")
        throw new Error(`no usable select ${label}`);
      return found;
      // The selectors wait for the environments' fetch; a loaded machine takes over a second.
    },
    { timeout: 10_000 },
  );
  await user.click(box);
  await user.click(await screen.findByRole("option", { name: option }));
}

describe("Data Harmonization", { timeout: 30_000 }, () => {
  it("opens on Data Validation, Legacy sql dev; Run Report waits for sign-in and an environment", async () => {
    mockApi({
      "/v1/me": () => errorResponse(401, "unauthorized", "Sign in first"),
      "/v1/dh/legacy/sql/dev/environments": () => jsonResponse({ data: [LEGACY_DEV] }),
    });
    renderUi(<DataHarmonizationPage />);
    expect(
      await screen.findByRole("tab", { name: "Data Validation", selected: true }),
    ).toBeVisible();
    expect(screen.getByRole("tab", { name: "Airflow Jobs" })).toBeVisible();
    await waitFor(() => expect(select("Platform")).toHaveTextContent("Legacy"));
    expect(select("Type")).toHaveTextContent("sql");
    expect(select("Environment Type")).toHaveTextContent("dev");
    expect(screen.getByRole("button", { name: "Run Report" })).toBeDisabled();
    // The empty space says what to do.
    const hint = /^Choose an environment, then press Run Report/;
    expect(await screen.findByText(hint)).toBeVisible();
    await choose("Environment", "Legacy Dev");
    expect(screen.queryByText(hint)).toBeNull();
    // Still disabled: nobody is signed in.
    expect(screen.getByRole("button", { name: "Run Report" })).toBeDisabled();
  });

  it("a platform change resets the choices; NextGen sql is disabled; Global shows only its selectors", async () => {
    mockApi({
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/dh/legacy/sql/dev/environments": () => jsonResponse({ data: [LEGACY_DEV] }),
      "/v1/dh/legacy/noSql/dev/environments": () => jsonResponse({ data: [] }),
      "/v1/dh/nextGen/noSql/dev/environments": () => jsonResponse({ data: [] }),
      "/v1/dh/runs": () => jsonResponse({ data: [] }),
    });
    renderUi(<DataHarmonizationPage />);
    await choose("Type", "noSql");
    await choose("Platform", "NextGen");
    expect(select("Type")).toHaveTextContent("noSql");
    const user = userEvent.setup();
    await user.click(select("Type") as HTMLElement);
    expect(await screen.findByRole("option", { name: "sql" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    await user.keyboard("{Escape}");
    await choose("Platform", "Global");
    expect(select("Environment")).toBeUndefined();
    expect(select("Global Schema")).toBeDefined();
    expect(select("Global Environment Type")).toHaveTextContent("dev");
    expect(screen.getByText(/^Choose a global schema, then press Run Report/)).toBeVisible();
  });

  it("shows NextGen cards; More Details only when the status contains Success", async () => {
    mockApi({
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/dh/nextGen/noSql/dev/environments": () =>
        jsonResponse({
          data: [{ ...LEGACY_DEV, value: "nextgen-fhir-dev", alias: "NextGen FHIR Dev" }],
        }),
      "/v1/dh/runs": () => jsonResponse({ data: [fhirRun()] }),
      "/v1/dh/runs/7": () => jsonResponse(fhirRun()),
    });
    renderUi(<DataHarmonizationPage />);
    await choose("Platform", "NextGen");
    await choose("Environment", "NextGen FHIR Dev");
    expect(await screen.findByText("Run 7: Finished")).toBeVisible();
    expect(screen.getByRole("button", { name: "More Details" })).toBeEnabled();
    expect(screen.getByRole("button", { name: /^Count Error$/ })).toBeDisabled();
    const totals = screen.getByLabelText("Totals");
    expect(within(totals).getByText("Unequal Counts: 1")).toBeVisible();
  });

  it("Find missing rows lists the keys the server found, keeps them and recomputes on request", async () => {
    const rows = [
      { id: 0, entity: "Subjects", status: "Success", sourceCount: 5, destinationCount: 5 },
      { id: 1, entity: "Visits", status: "Unequal Counts", sourceCount: 9, destinationCount: 7 },
    ];
    const legacyRun: DhRun = {
      ...fhirRun(),
      id: 8,
      platform: "legacy",
      type: "sql",
      env: "legacy-dev",
      kind: "sql",
      totals: dhTotals(rows),
      rows,
    };
    // The server's side: GET answers the kept result, POST searches and keeps a new one.
    const asked: string[] = [];
    let kept: unknown = null;
    mockApi({
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/dh/legacy/sql/dev/environments": () => jsonResponse({ data: [LEGACY_DEV] }),
      "/v1/dh/runs": () => jsonResponse({ data: [legacyRun] }),
      "/v1/dh/runs/8": () => jsonResponse(legacyRun),
      "/v1/dh/runs/8/rows/1/missing-rows": (_url, init) => {
        const method = init?.method ?? "GET";
        asked.push(method);
        if (method === "GET") return jsonResponse({ data: kept });
        const searches = asked.filter((m) => m === "POST").length;
        kept = {
          runId: 8,
          rowId: 1,
          entity: "Visits",
          key: "id",
          source: "legacy.visits (Legacy Dev, source legacy-mysql)",
          destination: "legacy.visits (Legacy Dev, destination legacy-redshift)",
          limit: 1000,
          missing: searches === 1 ? ["1207", "2950"] : ["2950"],
          extra: ["9001"],
          truncated: false,
          timedOut: false,
          segmentQueries: 3,
          keysRead: 412,
          elapsedMs: 95,
          computedAt: `2026-11-26T09:0${searches}:00.000Z`,
        };
        return jsonResponse(kept);
      },
    });
    renderUi(<DataHarmonizationPage />);
    await choose("Environment", "Legacy Dev");
    const buttons = await screen.findAllByRole("button", { name: "Find missing rows" });
    // Only the row whose counts differ offers it.
    expect(buttons).toHaveLength(1);
    const user = userEvent.setup();
    await user.click(buttons[0] as HTMLElement);
    let dialog = await screen.findByRole("dialog", { name: "Missing rows: Visits" });
    const missing = await within(dialog).findByRole("list", { name: "Missing in destination" });
    expect(
      within(missing)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1207", "2950"]);
    const extra = within(dialog).getByRole("list", { name: "Extra in destination" });
    expect(within(extra).getByText("9001")).toBeVisible();
    expect(
      within(dialog).getByText(
        /Computed 2026-11-26 09:01:00 UTC: 3 checksum queries a side, 412 keys read, 95 ms/,
      ),
    ).toBeVisible();
    // Nothing was kept yet: the first opening searched.
    expect(asked).toEqual(["GET", "POST"]);

    // Reopened, the kept result shows without a search; Recompute searches again.
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(buttons[0] as HTMLElement);
    dialog = await screen.findByRole("dialog", { name: "Missing rows: Visits" });
    expect(await within(dialog).findByText(/Computed 2026-11-26 09:01:00 UTC/)).toBeVisible();
    expect(asked.filter((m) => m === "POST")).toHaveLength(1);
    await user.click(within(dialog).getByRole("button", { name: "Recompute" }));
    expect(await within(dialog).findByText(/Computed 2026-11-26 09:02:00 UTC/)).toBeVisible();
    const after = within(dialog).getByRole("list", { name: "Missing in destination" });
    expect(
      within(after)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["2950"]);
    expect(asked.filter((m) => m === "POST")).toHaveLength(2);
  });

  it("says 'Unknown error while fetching data' when a fetch fails", async () => {
    mockApi({
      "/v1/me": () => jsonResponse(buildMe()),
      "/v1/dh/legacy/sql/dev/environments": () =>
        errorResponse(503, "unavailable", "database down"),
    });
    renderUi(<DataHarmonizationPage />);
    expect(await screen.findByText(new RegExp(DH_FETCH_ERROR))).toBeVisible();
  });
});

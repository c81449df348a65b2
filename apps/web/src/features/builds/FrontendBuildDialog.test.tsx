import { BUILD_MESSAGES, NOT_CONFIGURED } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildPage, buildRecord } from "../../test/build-fixtures";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { BuildsPage } from "./BuildsPage";

vi.setConfig({ testTimeout: 60_000 });

const catalog = buildCatalog({
  sites: {
    legacy: [
      { value: "dev.legacy.example.com", label: "Legacy Dev" },
      { value: "stage.legacy.example.com", label: "Legacy Stage" },
      { value: "other", label: "Other" },
    ],
    nextGen: [
      { value: "dev1.nextgen.example.com", label: "Dev1" },
      { value: "stage.nextgen.example.com", label: "Stage" },
      { value: "other", label: "Other" },
    ],
  },
  testSubsets: {
    legacy: [{ name: "Smoke Test", count: 2, tags: ["@smoke"], testIds: [11, 12] }],
    api: [],
    nextGen: [],
  },
  majorTags: ["@login", "@patients"],
});

/** Renders /builds with the Frontend dialog open; POSTs to a build list are kept in `posted`. */
function open(path = "/builds?tab=0&new=1", me = buildMe()) {
  const posted: { path: string; body: unknown }[] = [];
  const list = (url: URL, init?: RequestInit) => {
    if (init?.method === "POST") {
      posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      return jsonResponse({ build: buildRecord({ id: 9 }) }, 201);
    }
    return jsonResponse(buildPage([]));
  };
  mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/me": () => jsonResponse(me),
    "/v1/dtag": () => jsonResponse({ byTag: {} }),
    "/v1/builds": list,
    "/v1/china/builds": list,
    // Spira is configured, Jira is not: only Spira's releases are asked for.
    "/v1/integrations": () =>
      jsonResponse({
        jira: { configured: false, kind: null, origin: null, requirementsSync: false },
        spira: { configured: true, kind: "real", origin: "https://spira.example.com" },
        sync: {
          state: "never",
          progress: null,
          startedAt: null,
          finishedAt: null,
          lastSuccessAt: null,
          error: null,
        },
      }),
    "/v1/spira/releases": () => jsonResponse([{ ReleaseId: 12, FullName: "Nora 7.4" }]),
    "/v1/jira/release-versions": () => {
      throw new Error("an unconfigured Jira must not be asked for its releases");
    },
  });
  const view = renderUi(<BuildsPage />, { path });
  return { ...view, posted };
}

const dialog = () => screen.findByRole("dialog", { name: "Create Frontend Build" });
const create = () => userEvent.click(screen.getByRole("button", { name: "Create Builds" }));
const alertText = async () => (await screen.findByRole("alert")).textContent;

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: label }));
  await userEvent.click(await screen.findByRole("option", { name: option }));
}

describe("Frontend Create Build dialog", () => {
  it("opens on the spec's defaults and creates a build, then closes on /builds", async () => {
    const { posted, router } = open();
    const form = within(await dialog());
    expect(form.getByRole("radio", { name: "All Tests" })).toBeChecked();
    expect(form.getByRole("combobox", { name: "Parallel Runners" })).toHaveTextContent("1");
    expect(form.getByRole("textbox", { name: "Branch" })).toHaveValue("master");
    expect(form.getByRole("combobox", { name: "Site" })).toHaveTextContent("Legacy Dev");
    expect(form.queryByRole("combobox", { name: "Build Region" })).toBeNull();
    await choose("Parallel Runners", "10");
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      path: "/v1/builds",
      body: {
        mode: "run_all",
        branch: "master",
        nora_site: "dev.legacy.example.com",
        parallel_runners: 10,
        isNextGen: false,
      },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(router.state.location.pathname).toBe("/builds");
    expect(router.state.location.search).toBe("?tab=0");
  });

  it("NextGen resets the site, offers Build Region, and CHINA goes to the China service", async () => {
    const { posted } = open();
    const form = within(await dialog());
    await userEvent.click(form.getByRole("switch", { name: "NextGen platform" }));
    expect(form.getByRole("combobox", { name: "Site" })).toHaveTextContent("Dev1");
    await choose("Build Region", "CHINA");
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.path).toBe("/v1/china/builds");
    expect(posted[0]!.body).toMatchObject({
      isNextGen: true,
      nora_site: "dev1.nextgen.example.com",
    });
  });

  it("Other site and Other database host need their custom value", async () => {
    const { posted } = open();
    await dialog();
    await choose("Site", "Other");
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.customSite);
    await userEvent.type(screen.getByRole("textbox", { name: "Custom site" }), "qa7.example.com");
    await choose("Database host", "Other");
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.customDatabaseHost);
    await userEvent.type(
      screen.getByRole("textbox", { name: "Custom database host" }),
      "db7.example.com",
    );
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({
      nora_site: "qa7.example.com",
      database_host: "db7.example.com",
    });
  });

  it("By Test Tags: a tag must be known and not selected yet, compared lower-cased", async () => {
    const { posted } = open();
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "By Test Tags" }));
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.tagRequired);
    const field = screen.getByRole("combobox", { name: "Tag" });
    await userEvent.type(field, "@nope{Enter}");
    expect(screen.getByText('"@nope" is not a known tag')).toBeInTheDocument();
    await userEvent.type(field, "@LOGIN{Enter}");
    expect(screen.getByRole("button", { name: "@login" })).toBeInTheDocument();
    await userEvent.type(field, "@Login{Enter}");
    expect(screen.getByText('"@Login" is already selected')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, "@pat");
    const listbox = await screen.findByRole("listbox");
    expect(listbox).toHaveStyle({ maxHeight: "300px" });
    await userEvent.click(within(listbox).getByRole("option", { name: "@patients" }));
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({ mode: "by_tags", tag: "@login,@patients" });
  });

  it("a handed-over list of failed ids opens By Test Tags with the list filled in", async () => {
    const { posted } = open("/builds?tab=0&new=1&tags=TC11,TC12");
    const form = within(await dialog());
    expect(form.getByRole("radio", { name: "By Test Tags" })).toBeChecked();
    expect(form.getByRole("button", { name: "TC11" })).toBeInTheDocument();
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({ mode: "by_tags", tag: "TC11,TC12" });
  });

  it("By Sub Set shows name + count and sends the set's tests; By Dynamic Tags needs a tag", async () => {
    const { posted } = open();
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "By Sub Set" }));
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.subSetRequired);
    await choose("Sub Set", "Smoke Test + 2");
    await userEvent.click(screen.getByRole("radio", { name: "By Dynamic Tags" }));
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.dynamicTagRequired);
    await userEvent.click(screen.getByRole("radio", { name: "By Sub Set" }));
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({
      mode: "by_sub_set",
      subSet: "Smoke Test",
      tag: "TC11,TC12",
    });
  });

  it("OQ needs the profile's test-management credentials and offers the trackers' releases", async () => {
    const { posted } = open();
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "OQ Test" }));
    // Jira is not configured: its selector stays disabled and says what to set.
    expect(await screen.findByText(NOT_CONFIGURED.jira)).toBeVisible();
    expect(screen.getByRole("combobox", { name: "Jira release" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    await create();
    expect(await screen.findByText(BUILD_MESSAGES.spiraCredentials)).toBeInTheDocument();
    expect(posted).toHaveLength(0);
  });

  it("OQ sends the chosen Spira release's id", async () => {
    const { posted } = open(
      "/builds?tab=0&new=1",
      buildMe({ has_test_management_credentials: true }),
    );
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "OQ Test" }));
    const spira = screen.getByRole("combobox", { name: "Spira release" });
    await waitFor(() => expect(spira).not.toHaveAttribute("aria-disabled"));
    await userEvent.click(spira);
    await userEvent.click(await screen.findByRole("option", { name: "Nora 7.4" }));
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({ mode: "oq_test", releaseId: 12 });
    expect(posted[0]!.body).not.toHaveProperty("jiraRelease");
  });

  it("OQ refuses to start without a release: no request, and both selectors say why", async () => {
    const { posted } = open(
      "/builds?tab=0&new=1",
      buildMe({ has_test_management_credentials: true }),
    );
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "OQ Test" }));
    await create();
    expect(await screen.findAllByText(BUILD_MESSAGES.oqReleaseRequired)).not.toHaveLength(0);
    expect(screen.getByRole("combobox", { name: "Spira release" })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(posted).toHaveLength(0);
  });

  it("opened from the China list, it creates a China build and says so in its title", async () => {
    const { posted } = open("/builds?tab=0&region=CHINA&new=1");
    expect(
      await screen.findByRole("dialog", { name: "Create Frontend Build (China region)" }),
    ).toBeVisible();
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.path).toBe("/v1/china/builds");
    expect(posted[0]!.body).toMatchObject({ isNextGen: true });
  });

  it("Translation: stage branch, one runner, stage site, languages and company emails", async () => {
    const { posted } = open(
      "/builds?tab=0&new=1",
      buildMe({ has_test_management_credentials: true }),
    );
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "Translation Test" }));
    expect(screen.getByText(BUILD_MESSAGES.stageNote)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Branch" })).toHaveValue("stage");
    expect(screen.getByRole("textbox", { name: "Branch" })).toBeDisabled();
    expect(screen.getByRole("combobox", { name: "Parallel Runners" })).toHaveTextContent("1");
    expect(screen.getByRole("combobox", { name: "Site" })).toHaveTextContent("Legacy Stage");
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.translationLanguages);

    await userEvent.click(screen.getByRole("combobox", { name: "Languages" }));
    await userEvent.click(await screen.findByRole("option", { name: "French (fr-FR)" }));
    const emails = screen.getByRole("textbox", { name: "Screenshot report emails" });
    // Pasted, not typed: each keystroke re-renders the whole dialog, which is slow under jsdom.
    await userEvent.click(emails);
    await userEvent.paste("qa@example.com, not-an-email");
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.invalidEmail);
    await userEvent.clear(emails);
    await userEvent.paste("qa@example.com, ann@gmail.com");
    await create();
    expect(await alertText()).toBe("Only Example Health email supported");
    await userEvent.clear(emails);
    await userEvent.paste(" qa@example.com ,  lead @example.com");
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toMatchObject({
      mode: "translation_test",
      branch: "stage",
      parallel_runners: 1,
      nora_site: "stage.legacy.example.com",
      translationLanguageCode: ["fr-FR"],
    });
  });

  it("the platform switch clears the languages; Bulk Image Upload needs Number of Patients", async () => {
    open();
    await dialog();
    await userEvent.click(screen.getByRole("radio", { name: "Translation Test" }));
    await userEvent.click(screen.getByRole("combobox", { name: "Languages" }));
    await userEvent.click(await screen.findByRole("option", { name: "French (fr-FR)" }));
    expect(screen.getByRole("button", { name: "French (fr-FR)" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("switch", { name: "NextGen platform" }));
    expect(screen.queryByRole("button", { name: "French (fr-FR)" })).toBeNull();
    expect(screen.getByRole("combobox", { name: "Site" })).toHaveTextContent("Stage");

    await userEvent.click(screen.getByRole("radio", { name: "Bulk Image Upload" }));
    expect(screen.getByRole("textbox", { name: "Branch" })).toHaveValue("master");
    await create();
    expect(await alertText()).toBe(BUILD_MESSAGES.patientsRequired);
  });
});

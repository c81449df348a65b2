import { BUILD_MESSAGES } from "@assay/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildPage, buildRecord } from "../../test/build-fixtures";
import { buildCatalog } from "../../test/catalog-factory";
import { buildMe } from "../../test/me-factory";
import { jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { BuildsPage } from "./BuildsPage";

vi.setConfig({ testTimeout: 120_000 });

const catalog = buildCatalog({
  loadTeams: [
    {
      name: "NextGen",
      testFiles: [
        { value: "locustfiles/nextgen/patient_login.py", label: "Patient Login" },
        { value: "locustfiles/nextgen/diary_sync.py", label: "Diary Sync" },
      ],
    },
    {
      name: "MySQL DB",
      testFiles: [
        { value: "locustfiles/mysql/custom_query.py", label: "Custom DB Query", customDb: true },
      ],
    },
  ],
  loadEnvs: [
    {
      value: "nextgen-global-dev1",
      label: "NextGen Global Dev1",
      host: "https://dev1.example.com",
    },
    {
      value: "legacy-dev",
      label: "Legacy Dev",
      supportsDbTest: true,
      host: "https://legacy.example.com",
    },
    { value: "other", label: "Other" },
  ],
  testSubsets: {
    legacy: [],
    api: [{ name: "Reports API", count: 2, tags: ["@reports"], testIds: [7401, 7402] }],
    nextGen: [],
  },
});

function open(tab: 1 | 2) {
  const posted: { path: string; body: unknown }[] = [];
  const list = (url: URL, init?: RequestInit) => {
    if (init?.method === "POST") {
      posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
      return jsonResponse(
        { build: buildRecord({ id: 9, family: tab === 1 ? "backend" : "load" }) },
        201,
      );
    }
    return jsonResponse(buildPage([]));
  };
  mockApi({
    "/v1/catalog": () => jsonResponse(catalog),
    "/v1/me": () => jsonResponse(buildMe()),
    "/v1/api/builds": list,
    "/v1/load/builds": list,
  });
  const view = renderUi(<BuildsPage />, { path: `/builds?tab=${tab}&new=1` });
  return { ...view, posted };
}

const create = () => userEvent.click(screen.getByRole("button", { name: "Create Builds" }));
const field = (name: string) => screen.getByRole("textbox", { name });

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: label }));
  await userEvent.click(await screen.findByRole("option", { name: option }));
}

async function replace(name: string, text: string) {
  await userEvent.clear(field(name));
  if (text !== "") {
    await userEvent.click(field(name));
    await userEvent.paste(text);
  }
}

describe("Backend Create Build dialog", () => {
  it("needs env, branch, a tag or a sub set: no request, each field says why; then creates", async () => {
    const { posted, router } = open(1);
    const dialog = await screen.findByRole("dialog", { name: "Create Backend Build" });
    expect(within(dialog).getByRole("radio", { name: "All Tests" })).toBeChecked();
    expect(field("API branch")).toHaveValue("master");

    await create();
    expect(field("Env")).toHaveAttribute("aria-invalid", "true");
    // The message, then the field's counter ("0 / 2,048").
    expect(field("Env")).toHaveAccessibleDescription(`${BUILD_MESSAGES.envRequired}0 / 2,048`);
    expect(within(dialog).queryByRole("alert")).toBeNull();
    await replace("Env", "<script>alert(1)</script>");
    await create();
    expect(field("Env")).toHaveAccessibleDescription(/Env must be a name such as dev1/);
    await replace("Env", "dev1");
    await replace("API branch", "");
    await create();
    expect(field("API branch")).toHaveAttribute("aria-invalid", "true");
    expect(field("API branch")).toHaveAccessibleDescription("Branch is required.0 / 255");
    await replace("API branch", "release/2.4");

    await userEvent.click(screen.getByRole("radio", { name: "By Test Tags" }));
    await create();
    expect(within(dialog).getByText(BUILD_MESSAGES.tagRequired)).toBeVisible();
    await userEvent.click(screen.getByRole("radio", { name: "By Sub Set" }));
    await create();
    expect(screen.getByRole("combobox", { name: "Sub Set" })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(within(dialog).getByText(BUILD_MESSAGES.subSetRequired)).toBeVisible();
    expect(posted).toHaveLength(0);

    await choose("Sub Set", "Reports API + 2");
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      path: "/v1/api/builds",
      body: {
        mode: "by_sub_set",
        parallel_runners: 1,
        branch: "release/2.4",
        env: "dev1",
        subSet: "Reports API",
        tag: "TC7401,TC7402",
      },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(router.state.location.search).toBe("?tab=1");
  });
});

describe("Load Create Build dialog", () => {
  it("General: its defaults, and the messages of a bad form in one error alert", async () => {
    const { posted } = open(2);
    await screen.findByRole("dialog", { name: "Create Load Build" });
    expect(screen.getByRole("radio", { name: "General" })).toBeChecked();
    expect(screen.getByRole("combobox", { name: "Env" })).toHaveTextContent("NextGen Global Dev1");
    expect(screen.getByRole("combobox", { name: "Team" })).toHaveTextContent("NextGen");
    expect(screen.getByRole("combobox", { name: "Feature" })).toHaveTextContent("Patient Login");
    expect(field("No. of Users")).toHaveValue("20");
    expect(field("Duration")).toHaveValue("5m");
    expect(field("Spawn Rate (user/sec)")).toHaveValue("0.2");
    expect(field("Load branch")).toHaveValue("master");

    await replace("Load branch", "");
    await replace("Duration", "5");
    await replace("No. of Users", "");
    await choose("Env", "Other");
    await create();
    const alert = await screen.findByRole("alert");
    for (const message of [
      BUILD_MESSAGES.invalidBranch,
      BUILD_MESSAGES.invalidDuration,
      BUILD_MESSAGES.invalidUsers,
    ]) {
      expect(alert).toHaveTextContent(message);
    }

    await replace("Load branch", "master");
    await replace("Duration", "20s");
    await replace("No. of Users", "50");
    await create();
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(BUILD_MESSAGES.missingCustomHost),
    );
    expect(posted).toHaveLength(0);
    await replace("Custom host", "https://perf.example.com");
    await choose("Team", "MySQL DB");
    expect(screen.getByRole("combobox", { name: "Feature" })).toHaveTextContent("Custom DB Query");
    await create();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      path: "/v1/load/builds",
      body: {
        runType: "general",
        branch: "master",
        env: "other",
        host: "https://perf.example.com",
        testFile: "locustfiles/mysql/custom_query.py",
        runTime: "20s",
        spawnRate: 0.2,
        users: 50,
        loadRegion: "us-west-2",
        team: "MySQL DB",
      },
    });
  });

  it("Custom DB forces its env, file, 2m and 2 users, and needs a one-line DB Query", async () => {
    const { posted } = open(2);
    await screen.findByRole("dialog", { name: "Create Load Build" });
    await choose("Feature", "Diary Sync");
    await userEvent.click(screen.getByRole("radio", { name: "Custom DB" }));
    expect(screen.getByRole("combobox", { name: "Env" })).toHaveTextContent("Legacy Dev");
    expect(screen.getByRole("combobox", { name: "Feature" })).toHaveTextContent("Custom DB Query");
    expect(field("Duration")).toHaveValue("2m");
    expect(field("No. of Users")).toHaveValue("2");
    await create();
    expect(await screen.findByRole("alert")).toHaveTextContent(BUILD_MESSAGES.dbQueryMissing);
    await userEvent.click(field("DB Query"));
    await userEvent.paste("select 1;\nselect 2;");
    await create();
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(BUILD_MESSAGES.dbQueryInvalid),
    );
    expect(posted).toHaveLength(0);

    await userEvent.click(screen.getByRole("radio", { name: "General" }));
    expect(screen.getByRole("combobox", { name: "Env" })).toHaveTextContent("NextGen Global Dev1");
    expect(screen.getByRole("combobox", { name: "Feature" })).toHaveTextContent("Custom DB Query");
    expect(field("Duration")).toHaveValue("5m");
    expect(field("No. of Users")).toHaveValue("20");
    await userEvent.click(screen.getByRole("radio", { name: "Custom DB" }));
    expect(field("DB Query")).toHaveValue("");
  });
});

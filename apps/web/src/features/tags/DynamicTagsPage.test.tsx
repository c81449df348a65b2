import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { installFakeTagsApi, type FakeTag } from "../../test/fake-tags-api";
import { renderUi } from "../../test/render-ui";
import { DynamicTagsPage } from "./DynamicTagsPage";

const TAGS: FakeTag[] = [
  { id: 3, name: "smoke", tests: [{ id: 501, name: "Login works", taggedTestId: 31 }] },
  { id: 1, name: "@unstable", tests: [{ id: 777, name: "Flaky upload", taggedTestId: 11 }] },
  {
    id: 2,
    name: "checkout",
    tests: [
      { id: 501, name: "Login works", taggedTestId: 21 },
      { id: 502, name: "<b>Checkout</b> total", taggedTestId: 22 },
    ],
  },
  // A number-like name: a plain object would list it first whatever the server's order.
  { id: 4, name: "2024", tests: [] },
];

const renderPage = () => renderUi(<DynamicTagsPage />, { path: "/dtags" });
const cards = () => screen.getAllByRole("region", { name: /^Tag / });
// Label queries: far cheaper than role queries over MUI's DOM in jsdom.
const card = (name: string) => screen.getByLabelText(`Tag ${name}`);

describe("Dynamic Tags: states", { timeout: 30_000 }, () => {
  it("shows skeleton cards while the tags load", () => {
    installFakeTagsApi(TAGS, { hangList: true });
    renderPage();
    expect(screen.getByLabelText("Loading dynamic tags")).toHaveAttribute("aria-busy", "true");
  });

  it("says when the tags cannot be loaded, and retries on request", async () => {
    const api = installFakeTagsApi(TAGS, { failList: true });
    renderPage();

    expect(
      await screen.findByText(/Could not load the dynamic tags: Database unavailable/),
    ).toBeVisible();
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(api.listReads()).toBe(2));
  });

  it("says so when there are no tags at all", async () => {
    installFakeTagsApi([]);
    renderPage();
    expect(await screen.findByText("No dynamic tags yet")).toBeVisible();
  });
});

describe("Dynamic Tags: the grid", { timeout: 30_000 }, () => {
  it("shows every tag sorted by name, with its tests as TC{id} and name", async () => {
    installFakeTagsApi(TAGS);
    renderPage();
    await screen.findByRole("region", { name: "Tag smoke" });

    expect(cards().map((c) => within(c).getByRole("heading").textContent)).toEqual([
      "2024",
      "@unstable",
      "checkout",
      "smoke",
    ]);
    const tests = within(card("checkout")).getAllByRole("listitem");
    expect(tests.map((t) => t.textContent)).toEqual([
      "TC501Login works",
      "TC502<b>Checkout</b> total",
    ]);
    // Test names are text, never HTML.
    expect(card("checkout").querySelector("b")).toBeNull();
    expect(within(card("checkout")).getByRole("link", { name: "TC502" })).toHaveAttribute(
      "href",
      "/history/502",
    );
    expect(within(card("checkout")).getByText("2 tests")).toBeVisible();
    expect(within(card("2024")).getByText("No tests carry this tag.")).toBeVisible();
  });

  it("disables every change with 'Please sign in' when signed out", async () => {
    installFakeTagsApi(TAGS, { signedIn: false });
    renderPage();
    await screen.findByRole("region", { name: "Tag smoke" });

    const remove = screen.getByLabelText("Remove TC501 from smoke");
    expect(remove).toBeDisabled();
    expect(screen.getByLabelText("Delete tag smoke")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Add tag" })).toBeDisabled();
    await userEvent.hover(remove.parentElement!);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Please sign in");
  });
});

describe("Dynamic Tags: changes, signed in", { timeout: 30_000 }, () => {
  it("asks before deleting a tag, and Cancel sends nothing", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    await waitFor(() => expect(screen.getByLabelText("Delete tag checkout")).toBeEnabled());

    await userEvent.click(screen.getByLabelText("Delete tag checkout"));
    const dialog = await screen.findByRole("dialog", { name: "Delete the tag “checkout”?" });
    expect(dialog).toHaveTextContent("It is taken off 2 tests.");
    await userEvent.click(within(dialog).getByText("Cancel"));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(api.changes()).toEqual([]);
    expect(card("checkout")).toBeInTheDocument();
  });

  it("deletes a tag once confirmed, then fetches the list again", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    await waitFor(() => expect(screen.getByLabelText("Delete tag checkout")).toBeEnabled());

    await userEvent.click(screen.getByLabelText("Delete tag checkout"));
    await userEvent.click(within(await screen.findByRole("dialog")).getByText("Delete"));

    await waitFor(() => expect(screen.queryByLabelText("Tag checkout")).toBeNull());
    expect(api.changes()).toEqual([{ method: "DELETE", path: "/v1/dtag/2", body: undefined }]);
    expect(api.listReads()).toBe(2);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("never offers to delete '@unstable': it drives the unstable status", async () => {
    installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    await waitFor(() => expect(screen.getByLabelText("Delete tag smoke")).toBeEnabled());
    expect(screen.getByLabelText("Delete tag @unstable")).toBeDisabled();
  });

  it("takes one test out of a tag and shows the list fetched again", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    const remove = await screen.findByLabelText("Remove TC502 from checkout");
    await waitFor(() => expect(remove).toBeEnabled());

    await userEvent.click(remove);

    await waitFor(() => expect(within(card("checkout")).queryByText("TC502")).toBeNull());
    expect(api.changes()).toEqual([
      { method: "DELETE", path: "/v1/tagged_test/22", body: undefined },
    ]);
    expect(within(card("checkout")).getByText("TC501")).toBeVisible();
  });

  it("puts a removed test back with Undo, as the Add tag form would", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    const remove = await screen.findByLabelText("Remove TC502 from checkout");
    await waitFor(() => expect(remove).toBeEnabled());

    await userEvent.click(remove);
    expect(await screen.findByText("Removed TC502 from checkout.")).toBeVisible();
    await waitFor(() => expect(within(card("checkout")).queryByText("TC502")).toBeNull());
    await userEvent.click(screen.getByRole("button", { name: "Undo" }));

    expect(await within(card("checkout")).findByText("TC502")).toBeVisible();
    expect(api.changes()).toEqual([
      { method: "DELETE", path: "/v1/tagged_test/22", body: undefined },
      {
        method: "POST",
        path: "/v1/dtag/",
        body: { name: "checkout", testId: 502, testName: "<b>Checkout</b> total" },
      },
    ]);
    await waitFor(() => expect(screen.queryByText("Removed TC502 from checkout.")).toBeNull());
  });

  it("puts a deleted tag back with its tests with Undo", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    await waitFor(() => expect(screen.getByLabelText("Delete tag checkout")).toBeEnabled());

    await userEvent.click(screen.getByLabelText("Delete tag checkout"));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent(
      "It is taken off 2 tests. Undo, offered once it is deleted, puts them back.",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Deleted checkout and took it off 2 tests.")).toBeVisible();
    await waitFor(() => expect(screen.queryByLabelText("Tag checkout")).toBeNull());
    // The dialog hides the page from the accessibility tree until it has closed.
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await userEvent.click(screen.getByRole("button", { name: "Undo" }));

    await waitFor(() => expect(screen.getByLabelText("Tag checkout")).toBeVisible());
    expect(within(card("checkout")).getByText("TC501")).toBeVisible();
    expect(within(card("checkout")).getByText("TC502")).toBeVisible();
    expect(api.changes()).toEqual([
      { method: "DELETE", path: "/v1/dtag/2", body: undefined },
      { method: "POST", path: "/v1/dtag/2/restore", body: undefined },
    ]);
  });

  it("shows the error of a failed removal and keeps the test", async () => {
    installFakeTagsApi(TAGS, {
      signedIn: true,
      failRemovals: { status: 409, message: "The link changed meanwhile." },
    });
    renderPage();
    const remove = await screen.findByLabelText("Remove TC501 from smoke");
    await waitFor(() => expect(remove).toBeEnabled());

    await userEvent.click(remove);

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Could not remove TC501 from smoke: The link changed meanwhile.",
    );
    expect(within(card("smoke")).getByText("TC501")).toBeVisible();
  });

  it("shows the error of a failed tag delete inside the dialog", async () => {
    installFakeTagsApi(TAGS, { signedIn: true, failRemovals: { status: 500, message: "Boom." } });
    renderPage();
    await waitFor(() => expect(screen.getByLabelText("Delete tag smoke")).toBeEnabled());

    await userEvent.click(screen.getByLabelText("Delete tag smoke"));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));

    expect(await within(dialog).findByText("Could not delete the tag: Boom.")).toBeVisible();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(card("smoke")).toBeInTheDocument();
  });

  it("tags a test by id: the name is lower-cased, and the list is fetched again", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    const tag = await screen.findByRole("combobox", { name: "Tag" });
    await waitFor(() => expect(tag).toBeEnabled());

    await userEvent.click(tag);
    await userEvent.paste("  @Regression ");
    await userEvent.type(screen.getByRole("textbox", { name: "Test ID" }), "5x02");
    await userEvent.click(screen.getByRole("button", { name: "Add tag" }));

    expect(await screen.findByRole("region", { name: "Tag @regression" })).toBeVisible();
    expect(api.changes()).toEqual([
      { method: "POST", path: "/v1/dtag/", body: { name: "@regression", testId: 502 } },
    ]);
    expect(api.listReads()).toBe(2);
    expect(screen.getByRole("status")).toHaveTextContent("TC502 is now tagged @regression.");
  });

  it("refuses a name that breaks the rules before calling the server", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    const tag = await screen.findByRole("combobox", { name: "Tag" });
    await waitFor(() => expect(tag).toBeEnabled());

    await userEvent.click(tag);
    await userEvent.paste(`@${"x".repeat(100)}`);
    await userEvent.type(screen.getByRole("textbox", { name: "Test ID" }), "501{Enter}");

    expect(await screen.findByText(/at most 100 characters; this one has 101/)).toBeVisible();
    expect(api.changes()).toEqual([]);
  });

  it("refuses text that is no tag (markup, no @) with the rule, and calls nothing", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderPage();
    const tag = await screen.findByRole("combobox", { name: "Tag" });
    await waitFor(() => expect(tag).toBeEnabled());

    await userEvent.click(tag);
    await userEvent.paste("<script>alert(1)</script>");
    await userEvent.type(screen.getByRole("textbox", { name: "Test ID" }), "501{Enter}");
    expect(
      await screen.findByText(
        "“<script>alert(1)</script>” is not a tag: a tag starts with @, then letters, digits and - _ . : /, e.g. @smoke.",
      ),
    ).toBeVisible();
    expect(api.changes()).toEqual([]);
    // Tags made before the rule are still shown by their names.
    expect(card("checkout")).toBeVisible();
  });
});

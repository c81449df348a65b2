import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { installFakeTagsApi, type FakeTag } from "../../test/fake-tags-api";
import { renderUi } from "../../test/render-ui";
import { TagEditor } from "./TagEditor";
import { TAG_SUGGESTIONS_MAX_HEIGHT } from "./TagNameField";

const TAGS: FakeTag[] = [
  { id: 1, name: "@unstable", tests: [] },
  { id: 2, name: "checkout", tests: [{ id: 501, name: "Login works", taggedTestId: 21 }] },
  { id: 3, name: "smoke", tests: [{ id: 502, name: "Checkout total", taggedTestId: 31 }] },
];

const renderEditor = (tags: string[] = []) =>
  renderUi(<TagEditor testId={501} testName="Login works" tags={tags} />);

const field = () => screen.getByRole("combobox", { name: "Add tag" });

async function signedInField() {
  // Enabled once who is signed in is known: seconds on a busy machine.
  await waitFor(() => expect(field()).toBeEnabled(), { timeout: 15_000 });
  return field();
}

describe("TagEditor", { timeout: 60_000 }, () => {
  it("shows the test's dynamic tags from the tag list", async () => {
    installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();

    expect(await screen.findByRole("button", { name: "checkout" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "smoke" })).toBeNull();
  });

  it("shows the tags the caller passed until the list has loaded", () => {
    installFakeTagsApi(TAGS, { hangList: true });
    renderEditor(["checkout"]);
    expect(screen.getByText("checkout")).toBeVisible();
  });

  it("suggests the existing tags the test does not have, in a list at most 300 px high", async () => {
    installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();
    await userEvent.click(await signedInField());

    const listbox = await screen.findByRole("listbox");
    const options = within(listbox)
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(options).toEqual(["@unstable", "smoke"]);
    expect(TAG_SUGGESTIONS_MAX_HEIGHT).toBe(300);
    expect(getComputedStyle(listbox).maxHeight).toBe("300px");
  });

  it("adds a picked suggestion at once and fetches the list again", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();
    await userEvent.click(await signedInField());

    await userEvent.click(await screen.findByRole("option", { name: "smoke" }));

    expect(await screen.findByRole("button", { name: "smoke" })).toBeVisible();
    expect(api.changes()).toEqual([
      {
        method: "POST",
        path: "/v1/dtag/",
        body: { name: "smoke", testId: 501, testName: "Login works" },
      },
    ]);
    expect(api.listReads()).toBe(2);
  });

  it("creates a typed tag, lower-cased, on Enter", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();

    await userEvent.type(await signedInField(), "  @New-Tag {Enter}");

    expect(await screen.findByRole("button", { name: "@new-tag" })).toBeVisible();
    expect(api.changes()).toEqual([
      {
        method: "POST",
        path: "/v1/dtag/",
        body: { name: "@new-tag", testId: 501, testName: "Login works" },
      },
    ]);
    expect(field()).toHaveValue("");
  });

  it("ignores a tag the test already has, whatever its case, without calling the server", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();
    await screen.findByRole("button", { name: "checkout" });

    await userEvent.type(await signedInField(), "CHECKOUT{Enter}");

    expect(await screen.findByRole("status")).toHaveTextContent("TC501 already has checkout.");
    expect(api.changes()).toEqual([]);
  });

  it("says why a name is refused", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();
    await userEvent.click(await signedInField());

    await userEvent.paste(`@${"x".repeat(100)}`);
    await userEvent.keyboard("{Enter}");

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "A tag name can have at most 100 characters; this one has 101.",
    );
    expect(api.changes()).toEqual([]);
  });

  it("removes a tag from the test with the chip's delete icon", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: true });
    renderEditor();
    await signedInField();

    await userEvent.click(await screen.findByLabelText("Remove tag checkout"));

    await waitFor(() => expect(screen.queryByRole("button", { name: "checkout" })).toBeNull());
    expect(api.changes()).toEqual([
      { method: "DELETE", path: "/v1/tagged_test/21", body: undefined },
    ]);
  });

  it("shows the error when a removal fails, and keeps the tag", async () => {
    installFakeTagsApi(TAGS, {
      signedIn: true,
      failRemovals: { status: 500, message: "Database unavailable." },
    });
    renderEditor();
    await signedInField();

    await userEvent.click(await screen.findByLabelText("Remove tag checkout"));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Could not remove checkout: Database unavailable.",
    );
    expect(screen.getByRole("button", { name: "checkout" })).toBeVisible();
  });

  it("is read-only with 'Please sign in' when signed out", async () => {
    const api = installFakeTagsApi(TAGS, { signedIn: false });
    renderEditor();
    await screen.findByText("checkout");
    await waitFor(() => expect(api.calls.some((c) => c.path === "/v1/me")).toBe(true));

    expect(field()).toBeDisabled();
    expect(screen.queryByLabelText("Remove tag checkout")).toBeNull();
    await userEvent.hover(field().closest("span")!);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Please sign in");
  });
});

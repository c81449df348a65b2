import { PROFILE_ALERT_MS, type Me } from "@assay/core";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rememberCsrfToken } from "../../api/client";
import { buildMe } from "../../test/me-factory";
import { errorResponse, jsonResponse, mockApi } from "../../test/mock-api";
import { renderUi } from "../../test/render-ui";
import { ProfileDialog } from "./ProfileDialog";

afterEach(() => {
  rememberCsrfToken(null);
  vi.restoreAllMocks();
});

function renderDialog(me: Me, handlers: Parameters<typeof mockApi>[0] = {}) {
  rememberCsrfToken(me.csrf_token);
  const fetchMock = mockApi({ "/v1/me": () => jsonResponse(me), ...handlers });
  const onClose = vi.fn();
  renderUi(<ProfileDialog me={me} onClose={onClose} />);
  return { fetchMock, onClose };
}

const field = (label: string | RegExp) => screen.getByLabelText(label);
const putBodies = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls
    .filter(([input, init]) => String(input) === "/v1/me" && init?.method === "PUT")
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

describe("the Profile dialog", { timeout: 30_000 }, () => {
  it("shows the email read-only and the editable fields, with the password only as set or not", () => {
    renderDialog(buildMe({ name: "Quinn", spira_user: "quinn", spira_pass_set: true }));
    expect(field("Email")).toHaveValue("qa@example.com");
    expect(field("Email")).toHaveAttribute("readonly");
    expect(field(/^Name/)).toHaveValue("Quinn");
    expect(field("Test-management username")).toHaveValue("quinn");
    expect(field("Test-management password or API key")).toHaveValue("");
    expect(screen.getByText(/^Set\. Type a new one/)).toBeVisible();
  });

  it("says 'Not set' when no password is stored", () => {
    renderDialog(buildMe());
    expect(screen.getByText("Not set")).toBeVisible();
  });

  it("saves the fields with the CSRF token and closes on success", async () => {
    const me = buildMe({ csrf_token: "tok-9" });
    const { fetchMock, onClose } = renderDialog(me, {
      "/v1/me": (_url, init) =>
        jsonResponse(
          init?.method === "PUT" ? { ...me, name: "Quinn Analyst", spira_pass_set: true } : me,
        ),
    });
    await userEvent.clear(field(/^Name/));
    await userEvent.type(field(/^Name/), "Quinn Analyst");
    await userEvent.type(field("Test-management username"), "quinn");
    await userEvent.type(field("Test-management password or API key"), "s3cret-key");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(putBodies(fetchMock)).toEqual([
      { name: "Quinn Analyst", spira_user: "quinn", spira_pass: "s3cret-key" },
    ]);
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(put?.[1]?.headers).toMatchObject({ "X-CSRF-Token": "tok-9" });
  });

  it("leaves a stored password alone when the field stays empty, and removes it on request", async () => {
    const me = buildMe({ spira_user: "quinn", spira_pass_set: true });
    const { fetchMock } = renderDialog(me, { "/v1/me": () => jsonResponse(me) });
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(putBodies(fetchMock)).toHaveLength(1));
    expect(putBodies(fetchMock)[0]).not.toHaveProperty("spira_pass");

    await userEvent.click(screen.getByLabelText("Remove the stored password or API key"));
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(putBodies(fetchMock)).toHaveLength(2));
    expect(putBodies(fetchMock)[1]).toMatchObject({ spira_pass: null });
  });

  it("shows a failed save's error for 6 seconds and stays open", async () => {
    const me = buildMe();
    const { onClose } = renderDialog(me, {
      "/v1/me": (_url, init) =>
        init?.method === "PUT"
          ? errorResponse(400, "email_read_only", "The email cannot be changed here.")
          : jsonResponse(me),
    });
    // The alert's timer is found among the page's timers by its delay, then run by hand.
    const timers = vi.spyOn(globalThis, "setTimeout");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The email cannot be changed here.");

    const hide = timers.mock.calls.find(([, delay]) => delay === PROFILE_ALERT_MS)?.[0];
    expect(hide).toBeTypeOf("function");
    act(() => (hide as () => void)());
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog", { name: "Profile" })).toBeVisible();
  });

  it("uploads a chosen picture before saving, and refuses a file that is not an image", async () => {
    const me = buildMe();
    const { fetchMock } = renderDialog(me, {
      "/v1/me/picture": () => jsonResponse({ picture: "/v1/objects/avatars/p.png" }),
      "/v1/me": () => jsonResponse(me),
    });
    const input = screen.getByLabelText("Picture file");
    await userEvent.upload(input, new File(["%PDF"], "cv.pdf", { type: "application/pdf" }), {
      applyAccept: false,
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("PNG, JPEG, GIF or WebP");

    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "me.png", {
      type: "image/png",
    });
    await userEvent.upload(input, png);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(putBodies(fetchMock)).toHaveLength(1));
    const upload = fetchMock.mock.calls.find(([inputUrl]) => String(inputUrl) === "/v1/me/picture");
    expect(upload?.[1]?.method).toBe("PUT");
    expect(upload?.[1]?.headers).toMatchObject({ "Content-Type": "image/png" });
    expect(upload?.[1]?.body).toBe(png);
  });

  it("does not save without a name", async () => {
    const { fetchMock } = renderDialog(buildMe());
    await userEvent.clear(field(/^Name/));
    expect(screen.getByText("Name is required")).toBeVisible();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    expect(putBodies(fetchMock)).toHaveLength(0);
  });

  it("counts each text field against its limit and refuses a too-long one in words", async () => {
    const { fetchMock } = renderDialog(buildMe({ name: "Ada" }));
    expect(screen.getByLabelText("3 of at most 100 characters")).toBeVisible();
    expect(screen.getByLabelText("0 of at most 1,000 characters")).toBeVisible();
    await userEvent.click(field(/^Test-management username/));
    await userEvent.paste("u".repeat(201));
    expect(
      screen.getByText("The test-management username can be at most 200 characters."),
    ).toBeVisible();
    expect(field(/^Test-management username/)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    expect(putBodies(fetchMock)).toHaveLength(0);
  });
});

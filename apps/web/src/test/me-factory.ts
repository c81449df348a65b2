import { MeSchema, type Me } from "@assay/core";

/** A signed-in user as GET /v1/me returns it; tests override what they look at. */
export function buildMe(overrides: Partial<Me> = {}): Me {
  return MeSchema.parse({
    signed_in: true,
    id: 1,
    email: "qa@example.com",
    name: "QA Engineer",
    picture: null,
    admin: false,
    spira_user: null,
    spira_pass_set: false,
    has_test_management_credentials: false,
    csrf_token: "csrf-token-1",
    ...overrides,
  });
}

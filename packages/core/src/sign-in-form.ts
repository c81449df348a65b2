import { z } from "zod";

/**
 * The embedded identity provider's login form (server-rendered HTML, not part of the JSON API).
 * Missing fields are empty strings, so the page can say what is missing.
 */
export const SignInFormSchema = z.object({
  email: z.string().max(320, "An email is at most 320 characters").default(""),
  password: z.string().max(1024, "A password is at most 1024 characters").default(""),
});
export type SignInForm = z.infer<typeof SignInFormSchema>;

/** An interaction of the provider, named by its uid (nanoid characters). */
export const InteractionParamsSchema = z.object({
  uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "not an interaction id"),
});

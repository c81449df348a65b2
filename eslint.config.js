import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// Dependencies point one way (STYLE.md rule 1): core imports only zod, web never imports the
// server, and nothing imports an app's internals through a relative path.
const serverImports = {
  group: ["@assay/server", "@assay/server/*", "**/apps/server/**", "@assay/cli", "**/apps/cli/**"],
  message: "The web app talks to the server over HTTP only; share types through @assay/core.",
};

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/dist-ssr/**",
      "**/node_modules/**",
      "data/**",
      "coverage/**",
      "test-results/**",
      // Real reports and the small projects that produced them, not Assay code.
      "apps/server/test/fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    files: ["packages/core/**/*.ts"],
    ignores: ["packages/core/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!zod$|zod/|\\.{1,2}/).*",
              message:
                "packages/core imports only zod: no Node built-ins, no DOM, no other package.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": ["error", { patterns: [serverImports] }],
    },
  },
  {
    // The CLI, the scripts and the example suites print to the terminal (a build log): that is
    // their job.
    files: [
      "apps/cli/**/*.ts",
      "e2e/**/*.{ts,mjs}",
      "scripts/**/*.mjs",
      "**/*.config.{ts,js}",
      "examples/**/*.mjs",
    ],
    rules: { "no-console": "off" },
  },
);

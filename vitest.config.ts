import { defineConfig } from "vitest/config";

// One Vitest run, five projects: `npm test` runs the first four, then e2e on its own so that the
// browser journeys start only after the unit and integration suites are green.
export default defineConfig({
  test: {
    // Two workers keep both cores busy without thrashing; each server test file has its own
    // database, so files run in parallel safely.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "core",
          root: "packages/core",
          include: ["src/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "server",
          root: "apps/server",
          include: ["src/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup.ts"],
          // The files a worker runs share their imports (each file imports the whole app, which
          // took longer than most files' tests): files keep their state in their own database,
          // and the one module mock resets the registry for itself (secret-key-once.test.ts).
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "cli",
          root: "apps/cli",
          include: ["src/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        extends: "apps/web/vite.config.ts",
        test: {
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.tsx", "src/**/*.test.ts"],
          environment: "jsdom",
          setupFiles: ["src/test/setup.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          root: "e2e",
          include: ["**/*.e2e.ts"],
          environment: "node",
          setupFiles: ["support/setup.ts"],
          globalSetup: ["support/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

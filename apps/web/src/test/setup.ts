import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// Whole screens render in these tests, and role queries over MUI's large DOM are slow in jsdom:
// on a loaded machine (CI) a screen's rows can take more than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

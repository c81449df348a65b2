import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

// `npm run dev` (scripts/dev.mjs) starts the server here, on PORT as the server reads it; in
// production the server serves the built app itself.
const SERVER_ORIGIN = `http://127.0.0.1:${process.env.PORT ?? "8080"}`;

// Everything the server answers that is not a screen of the app. The Host header is kept so that
// sign-in redirects and session cookies are issued for the dev origin the browser is on.
const SERVER_PATHS = ["/v1", "/docs", "/healthz", "/readyz", "/auth", "/oidc"];

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  SERVER_PATHS.map((path) => [path, { target: SERVER_ORIGIN }]),
);

// Libraries change less often than the app: in their own chunks they stay cached across releases,
// and no chunk grows past Vite's 500 kB warning. The first matching group wins. The mui, vendor
// and app groups take only what the first load needs ("$initial"). What two or more screens share
// (MUI components no first screen shows, the app's shared hooks and widgets) is one "screens"
// chunk: left to Rolldown, it was 37 small chunks for Test Reports alone, which a cold page
// fetched six at a time behind the app's own (docs/performance.md, "Large runs"). The chart
// library stays with the screens that draw charts.
const VENDOR_CHUNKS = [
  {
    // main.tsx's first import: with no dependencies, it runs before the app's chunks evaluate.
    name: "preload-screen",
    test: /[\\/]src[\\/](preload-screen|screen-code)\.ts$/,
  },
  {
    name: "mui",
    tags: ["$initial" as const],
    test: /[\\/]node_modules[\\/](@mui|@emotion|stylis|react-transition-group)[\\/]/,
  },
  { name: "react", test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
  { name: "vendor", tags: ["$initial" as const], test: /[\\/]node_modules[\\/]/ },
  { name: "app", tags: ["$initial" as const], test: /[\\/]src[\\/]/ },
  {
    name: "screens",
    minShareCount: 2,
    test: (id: string) => !/[\\/]node_modules[\\/](@mui[\\/]x-|d3-)/.test(id),
  },
];

// The server renders the first screen of a page opened at a run's dialog (src/first-screen.tsx):
// that entry is built for Node on its own (`vite build --ssr`), into dist-ssr, which the server
// imports and does not serve. Everything it needs is bundled, so it runs wherever the server does.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: isSsrBuild
    ? { outDir: "dist-ssr", emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: "dist",
        emptyOutDir: true,
        rolldownOptions: { output: { codeSplitting: { groups: VENDOR_CHUNKS } } },
      },
  // Only for that build (not the tests, which extend this config): everything bundled, and
  // production React and emotion, since the markup (emotion's class names included) must be what
  // the page's production build renders, or the page cannot take the HTML over.
  ...(isSsrBuild && {
    ssr: { noExternal: true },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  }),
  server: { proxy },
}));

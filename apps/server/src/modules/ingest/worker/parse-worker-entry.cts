/*
 * The parse worker's file as piscina loads it. Piscina loads a worker's file with require()
 * first, and Node 20's require() of an ES module crashed a test run's process outright
 * ("FATAL ERROR: v8::Module::IsGraphAsync ... must be used on an instantiated module", from
 * piscina's worker.js). This file is CommonJS, so require() loads it as such; it exports the
 * promise of the worker's handler, loaded with import(), which piscina awaits before the thread
 * takes tasks (its README, "Delaying availability of workers"): the modules are still loaded
 * when the pool starts a thread, not by its first upload.
 */
import type { ParseTask } from "./parse-task.js";

export = import("./parse-worker.js").then(
  (worker): ((task: ParseTask) => Promise<void>) => worker.default,
);

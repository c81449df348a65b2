/**
 * The wrapper a local build's command runs under (node -e WRAPPER -- command args): it leads the
 * build's process group and holds a pipe (its stdin) from the server. When the pipe closes, the
 * server is gone, whatever the way (kill -9 included), and the wrapper ends the whole group at
 * once, so no runner outlives its server to upload into a build that another server took over.
 * Otherwise it passes the command's exit on as its own (code, or the signal that ended it).
 * Plain JavaScript in a string, so it runs as it is from the sources and from the build alike.
 */
export const RUNNER_WRAPPER = String.raw`
const { spawn } = require("node:child_process");
const [file, ...args] = process.argv.slice(1);
// Stop sends SIGTERM to the group: the command handles it; the wrapper waits for its end.
process.on("SIGTERM", () => undefined);
process.on("SIGINT", () => undefined);
const endGroup = () => {
  try { process.kill(-process.pid, "SIGKILL"); } catch { process.exit(137); }
};
process.stdin.on("end", endGroup);
process.stdin.on("close", endGroup);
process.stdin.on("error", endGroup);
process.stdin.resume();
const child = spawn(file, args, { stdio: ["ignore", "inherit", "inherit"] });
child.on("error", (error) => {
  process.stderr.write("assay: " + file + " could not be started: " + error.message + "\n");
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
`;

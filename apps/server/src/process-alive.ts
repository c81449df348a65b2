/**
 * Whether a process with this id exists: signal 0 checks without sending anything. EPERM means
 * it exists but belongs to another user (the embedded PostgreSQL's postgres user, say).
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

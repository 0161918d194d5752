// Vitest global setup: every temporary folder the tests make (snapshots, fixture podcasts, damaged
// copies, embedded databases, the run's own PostgreSQL, browser profiles) goes under one root that is
// removed when the run ends, so test runs leave nothing behind. The root is also the run's TMPDIR, so
// what asks the system for a temporary folder (os.tmpdir() in the tests and the service, and the
// programs they start) lands there too; workers and child processes inherit it.
//
// The root is in memory (/dev/shm) where that is a tmpfs with room: the suite copies a 39 MB, 971-file
// embedded database folder well over a hundred times, and a copy and removal there cost 63 ms of CPU
// against 406 ms on an ext4 /tmp (mostly the kernel's); the databases' own writes, the built
// snapshots and the browser profiles get cheaper the same way. TEST_TMP_BASE names another base.
import { chmodSync, mkdtempSync, rmSync, statfsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { abandonedEntries, removeAbandonedClusters } from "./PostgresServer.js"

const rootPrefix = "podcast-platform-tests-"
/** How OwnPostgres.ts names its cluster's folder (then the run's pid): found again after a kill. */
export const ownClusterPrefix = "podcast-platform-pg-"

/** statfs's type of a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994
/** With less free memory there the run stays on disk: its folders reach a few hundred MB. */
const MIN_FREE_BYTES = 4 * 1024 ** 3

const inMemory = (path: string): boolean => {
  try {
    const stats = statfsSync(path)
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= MIN_FREE_BYTES
  } catch {
    return false
  }
}

const tempBase = (): string => {
  const chosen = process.env.TEST_TMP_BASE
  if (chosen !== undefined && chosen !== "") return chosen
  return inMemory("/dev/shm") ? "/dev/shm" : tmpdir()
}

/**
 * The roots of earlier runs that were killed before their teardown (their pid is gone), with the
 * PostgreSQL each may have left running; in memory they would hold it until the machine restarts.
 * Clusters of runs from before the root was the run's TMPDIR sit in the system's temporary folder.
 */
const removeAbandoned = (base: string) => {
  removeAbandonedClusters(tmpdir(), ownClusterPrefix)
  for (const root of abandonedEntries(base, rootPrefix)) {
    removeAbandonedClusters(root, ownClusterPrefix)
    rmSync(root, { recursive: true, force: true })
  }
}

export default function setup(): () => void {
  const base = tempBase()
  removeAbandoned(base)
  const root = mkdtempSync(join(base, `${rootPrefix}${process.pid}-`))
  // As root, the run's PostgreSQL belongs to another user (PostgresServer.ts), who must reach its
  // folder in here: others may pass through the root, not list it (the folders in it are 0700).
  chmodSync(root, 0o711)
  const previous = process.env.TMPDIR
  process.env.TEST_TMP_ROOT = root
  process.env.TMPDIR = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(root, { recursive: true, force: true })
  }
}

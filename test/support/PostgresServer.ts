// PostgreSQL's server binaries and throwaway clusters made with them: the test run's own server when
// no TEST_DATABASE_URL is given (OwnPostgres.ts), and the clusters the restart tests stop and start
// (test/foundation/support/PostgresCluster.ts). PostgreSQL refuses to run as root: as root, a
// cluster belongs to the `postgres` user (Debian's package makes it), or to `nobody` without one.
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { isRunning } from "../../src/foundation/Database/EmbeddedPostgres.js"
import { freePort } from "./FreePort.js"

const hasServerBinaries = (folder: string) =>
  existsSync(join(folder, "initdb")) && existsSync(join(folder, "pg_ctl"))

/** The folder holding initdb and pg_ctl: one on PATH, else the newest under /usr/lib/postgresql. */
export const findPostgresBin = (): string | undefined => {
  const onPath = (process.env.PATH ?? "")
    .split(delimiter)
    .find((folder) => folder !== "" && hasServerBinaries(folder))
  if (onPath !== undefined) return onPath
  const root = "/usr/lib/postgresql"
  const newest = (existsSync(root) ? readdirSync(root) : [])
    .filter((version) => hasServerBinaries(join(root, version, "bin")))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))[0]
  return newest === undefined ? undefined : join(root, newest, "bin")
}

const isRoot = process.getuid?.() === 0

const idOf = (user: string): { readonly uid: number; readonly gid: number } | undefined => {
  try {
    const uid = Number(execFileSync("id", ["-u", user], { stdio: "pipe" }).toString().trim())
    const gid = Number(execFileSync("id", ["-g", user], { stdio: "pipe" }).toString().trim())
    return { uid, gid }
  } catch {
    return undefined
  }
}

/** Who runs the clusters when we are root; undefined when we are not (then it is us). */
const clusterUser: { readonly name: string; readonly uid: number; readonly gid: number } | undefined = isRoot
  ? (["postgres", "nobody"].flatMap((name) => {
      const id = idOf(name)
      return id === undefined ? [] : [{ name, ...id }]
    })[0] ?? { name: "nobody", uid: 65534, gid: 65534 })
  : undefined

/** Runs a PostgreSQL binary as the cluster's user. */
export const runPostgres = (binary: string, args: ReadonlyArray<string>): void => {
  if (clusterUser === undefined) execFileSync(binary, [...args], { stdio: "pipe" })
  else execFileSync("runuser", ["-u", clusterUser.name, "--", binary, ...args], { stdio: "pipe" })
}

export interface PostgresServer {
  readonly url: string
  readonly port: number
  /** The folder holding the cluster's data, its log and its socket. */
  readonly dir: string
  readonly data: string
  readonly log: string
  readonly pgCtl: string
  /** Starts the server again after `stop` (same port, same data). */
  readonly start: () => void
  /** A fast shutdown: connections are ended, the data is kept. */
  readonly stop: () => void
  /** Stops the server at once and deletes the folder. */
  readonly destroy: () => void
}

/**
 * Creates a cluster with the binaries in `bin` in a new folder of the system's temporary folder
 * (named `prefix` and a random suffix), on a free loopback port, and starts it.
 */
export const startPostgresServer = async (
  bin: string,
  prefix: string,
  settings: ReadonlyArray<string> = []
): Promise<PostgresServer> => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  try {
    if (clusterUser !== undefined) chownSync(dir, clusterUser.uid, clusterUser.gid)
    const data = join(dir, "data")
    const log = join(dir, "log")
    const pgCtl = join(bin, "pg_ctl")
    runPostgres(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"])
    const port = await freePort()
    const options = [
      "listen_addresses=127.0.0.1",
      `port=${port}`,
      `unix_socket_directories=${dir}`,
      "fsync=off",
      ...settings
    ]
      .map((setting) => `-c ${setting}`)
      .join(" ")
    const start = () => runPostgres(pgCtl, ["-D", data, "-l", log, "-w", "-o", options, "start"])
    start()
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dir,
      data,
      log,
      pgCtl,
      start,
      stop: () => runPostgres(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"]),
      destroy: () => destroyPostgresServer(pgCtl, dir)
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/** Stops the cluster in `dir` at once, if it runs, and deletes the folder. */
export const destroyPostgresServer = (pgCtl: string, dir: string): void => {
  try {
    runPostgres(pgCtl, ["-D", join(dir, "data"), "-m", "immediate", "stop"])
  } catch {
    // Not running (never started, or already stopped).
  }
  rmSync(dir, { recursive: true, force: true })
}

/**
 * The paths of the entries of `folder` named `<prefix><pid>-…` for a process that is gone: what a run
 * killed before its teardown left (the test runs name their folders so).
 */
export const abandonedEntries = (folder: string, prefix: string): Array<string> =>
  (existsSync(folder) ? readdirSync(folder) : []).flatMap((name) => {
    if (!name.startsWith(prefix)) return []
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1])
    return Number.isInteger(pid) && pid !== process.pid && !isRunning(pid) ? [join(folder, name)] : []
  })

/** Stops and deletes the clusters a killed run left under `folder` (named `<prefix><pid>-…`). */
export const removeAbandonedClusters = (folder: string, prefix: string): void => {
  const bin = findPostgresBin()
  for (const dir of abandonedEntries(folder, prefix)) {
    if (bin !== undefined) destroyPostgresServer(join(bin, "pg_ctl"), dir)
    else rmSync(dir, { recursive: true, force: true })
  }
}

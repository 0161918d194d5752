// A throwaway PostgreSQL server of the test's own (initdb + pg_ctl from the binaries CI found), so a
// test can stop and restart it without disturbing the shared test server other files use.
import { execFileSync } from "node:child_process"
import { chownSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import * as Effect from "effect/Effect"
import { freePort } from "../../support/FreePort.js"

export const pgCtl = process.env.TEST_PG_CTL

const isRoot = process.getuid?.() === 0

/** Runs a PostgreSQL binary, as the `postgres` user when we are root (PostgreSQL refuses root). */
const run = (binary: string, args: ReadonlyArray<string>) =>
  isRoot
    ? execFileSync("runuser", ["-u", "postgres", "--", binary, ...args], { stdio: "pipe" })
    : execFileSync(binary, [...args], { stdio: "pipe" })

export interface PostgresCluster {
  readonly url: string
  readonly stop: Effect.Effect<void>
  readonly start: Effect.Effect<void>
}

/** Creates and starts a cluster; it is stopped and deleted when the scope closes. */
export const postgresCluster = Effect.acquireRelease(
  Effect.promise(async () => {
    if (pgCtl === undefined) throw new Error("TEST_PG_CTL is not set")
    const bin = dirname(pgCtl)
    const dir = mkdtempSync(join(tmpdir(), "foundation-pg-"))
    if (isRoot) {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
      chownSync(dir, uid, gid)
    }
    const data = join(dir, "data")
    run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"])
    const port = await freePort()
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`
    const start = () => run(pgCtl, ["-D", data, "-l", join(dir, "log"), "-w", "-o", options, "start"])
    const stop = () => run(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"])
    start()
    return {
      dir,
      cluster: {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        stop: Effect.sync(stop),
        start: Effect.sync(start)
      } satisfies PostgresCluster,
      destroy: () => {
        try {
          run(pgCtl, ["-D", data, "-m", "immediate", "stop"])
        } catch {
          // Already stopped.
        }
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }),
  ({ destroy }) => Effect.sync(destroy)
).pipe(Effect.map(({ cluster }) => cluster))

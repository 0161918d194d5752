// The embedded database used when no DATABASE_URL is given: PGlite (PostgreSQL compiled to
// WebAssembly) in a data folder, exposed on a loopback port so that the same PostgreSQL client and
// SQL serve both set-ups. PGlite is one backend session: callers must use a single connection.
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly message: string
  readonly cause: unknown
}> {}

export interface EmbeddedPostgres {
  readonly host: string
  readonly port: number
}

const close = (what: string, f: () => Promise<void>) =>
  Effect.tryPromise(f).pipe(
    Effect.timeout("5 seconds"),
    Effect.catchAll((cause) => Effect.logWarning(`Closing the embedded database (${what}) failed`, cause))
  )

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * PGlite has no lock of its own, and two processes writing one data folder would corrupt it: a
 * lock file holding the owner's pid refuses a second opener, and is taken over when its process is
 * gone (after a crash).
 */
const lockDataDir = (dataDir: string) => {
  const path = join(dataDir, "foundation.lock")
  const pid = String(process.pid)
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        await mkdir(dataDir, { recursive: true })
        try {
          await writeFile(path, pid, { flag: "wx" })
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
          const owner = Number((await readFile(path, "utf8")).trim())
          if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
            throw new Error(`it is in use by process ${owner}; stop it or choose another DATA_DIR`)
          }
          await writeFile(path, pid)
        }
      },
      catch: (cause) =>
        new EmbeddedPostgresError({
          message: `Cannot open the embedded database in ${dataDir}: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause
        })
    }),
    () => Effect.promise(() => unlink(path).catch(() => {}))
  )
}

/** Opens (creating when new) the database in `dataDir` and serves it on 127.0.0.1 at a free port. */
export const embeddedPostgres = (dataDir: string) =>
  Effect.gen(function* () {
    yield* lockDataDir(dataDir)
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(dataDir),
        catch: (cause) =>
          new EmbeddedPostgresError({ message: `Cannot open the embedded database in ${dataDir}`, cause })
      }),
      (db) => close("database", () => db.close())
    )
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 })
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => server.start(),
        catch: (cause) =>
          new EmbeddedPostgresError({ message: "Cannot expose the embedded database on loopback", cause })
      }),
      () => close("socket", () => server.stop())
    )
    const conn = server.getServerConn()
    const port = Number(conn.slice(conn.lastIndexOf(":") + 1))
    return { host: "127.0.0.1", port } satisfies EmbeddedPostgres
  })

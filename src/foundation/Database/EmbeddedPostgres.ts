/// <reference path="./WebAssembly.d.ts" />
// The embedded database used when no DATABASE_URL is given: PGlite (PostgreSQL compiled to
// WebAssembly) in a data folder, run in a worker thread (PgliteWorker.ts) and exposed on a loopback
// port, so that the same PostgreSQL client and SQL serve both set-ups. PGlite is one backend
// session: callers must use a single connection.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { FromPglite, PgliteWorkerData } from "./PgliteWorker.js"

export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly message: string
  readonly cause: unknown
}> {}

export interface EmbeddedPostgres {
  readonly host: string
  readonly port: number
}

/** Whether the process `pid` exists (also when it belongs to another user). */
export const isRunning = (pid: number): boolean => {
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

/**
 * PGlite's PostgreSQL, compiled once per process and handed to every thread that opens a database
 * (a compiled WebAssembly module can be posted to a worker thread, and the threads then share its
 * machine code). Left to itself, PGlite compiles its 9 MB module again in each thread, and each
 * thread then compiles and optimises the same functions again as it runs them: about 40 % of the
 * CPU of opening a database (the tests open over a hundred; a service opens one, and loses nothing).
 * The file is the one PGlite would read itself, beside its entry point.
 */
let compiled: Promise<WebAssembly.Module> | undefined
const pgliteWasmModule = (): Promise<WebAssembly.Module> => {
  if (compiled === undefined) {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
    compiled = readFile(join(entry, "..", "pglite.wasm")).then((bytes) => WebAssembly.compile(bytes))
    // A failure is reported to this opener; the next one tries again.
    compiled.catch(() => {
      compiled = undefined
    })
  }
  return compiled
}

/**
 * From source on a Node that does not strip types (Node 20): the worker's file compiled to
 * JavaScript once per process by esbuild (a dependency already: `npm start` bundles with it), into
 * node_modules/.cache/ so that its package imports resolve as the source's do (it imports packages
 * and node's modules only: a relative import would not resolve from there). tsx's loader
 * registered inside each thread instead cost about half a second of CPU per database opened (a loader
 * thread of its own, every module passed through it); the tests open well over a hundred.
 */
let compiledWorker: URL | undefined
const compileWorker = (source: URL): URL => {
  if (compiledWorker === undefined) {
    const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild")
    const { code } = esbuild.transformSync(readFileSync(source, "utf8"), {
      loader: "ts",
      format: "esm",
      sourcemap: "inline",
      sourcefile: fileURLToPath(source)
    })
    const folder = new URL("../../../node_modules/.cache/podcast-platform/", import.meta.url)
    const file = new URL(
      `PgliteWorker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`,
      folder
    )
    if (!existsSync(file)) {
      mkdirSync(folder, { recursive: true })
      // Written aside and renamed: another process may be compiling the same file.
      const partial = `${fileURLToPath(file)}.${process.pid}`
      writeFileSync(partial, code)
      renameSync(partial, file)
    }
    compiledWorker = file
  }
  return compiledWorker
}

/**
 * The worker: beside the bundle when the service runs as `npm start` builds it (esbuild writes both
 * files); from source (tests, `npm run start:dev`), the TypeScript file itself where Node strips
 * types (Node 22.18+, 24), otherwise (Node 20) compiled once per process (compileWorker).
 */
const spawnWorker = (workerData: PgliteWorkerData): Worker => {
  if (!import.meta.url.endsWith(".ts")) {
    return new Worker(new URL("./PgliteWorker.mjs", import.meta.url), { workerData })
  }
  const source = new URL("./PgliteWorker.ts", import.meta.url)
  return new Worker(process.features.typescript ? source : compileWorker(source), { workerData })
}

interface Running {
  readonly worker: Worker
  readonly port: number
}

const cannotOpen = (dataDir: string, message: string, cause: unknown) =>
  new EmbeddedPostgresError({
    message: `Cannot open the embedded database in ${dataDir}: ${message}`,
    cause
  })

const startWorker = (dataDir: string, sharedBuffers: string, pgliteWasmModule: WebAssembly.Module) =>
  Effect.async<Running, EmbeddedPostgresError>((resume) => {
    const worker = spawnWorker({ dataDir, sharedBuffers, pgliteWasmModule })
    const fail = (message: string, cause: unknown) => {
      worker.removeAllListeners()
      void worker.terminate()
      resume(Effect.fail(cannotOpen(dataDir, message, cause)))
    }
    worker.once("message", (message: FromPglite) => {
      if ("ready" in message) {
        worker.removeAllListeners()
        resume(Effect.succeed({ worker, port: message.ready }))
      } else fail("failed" in message ? message.failed : "its thread stopped", message)
    })
    worker.once("error", (error) => fail(error.message, error))
    worker.once("exit", (code) => fail(`its thread exited with code ${code}`, code))
  })

const stopWorker = ({ worker }: Running) =>
  Effect.async<void>((resume) => {
    worker.once("message", (message: FromPglite) => {
      if ("stopped" in message && message.problem !== undefined) {
        resume(Effect.logWarning(`Closing the embedded database failed: ${message.problem}`))
      } else resume(Effect.void)
    })
    worker.once("exit", () => resume(Effect.void))
    // A thread that has already ended (threadId -1) has nothing to close.
    if (worker.threadId === -1) resume(Effect.void)
    else worker.postMessage("stop")
  }).pipe(
    Effect.timeout("5 seconds"),
    Effect.catchAll(() => Effect.logWarning("The embedded database did not close within 5 seconds")),
    Effect.ensuring(Effect.promise(() => worker.terminate()))
  )

/**
 * Opens (creating when new) the database in `dataDir`, in its own thread, and serves it on
 * 127.0.0.1 at a free port.
 */
export const embeddedPostgres = (dataDir: string, sharedBuffers: string) =>
  Effect.gen(function* () {
    yield* lockDataDir(dataDir)
    const wasm = yield* Effect.tryPromise({
      try: pgliteWasmModule,
      catch: (cause) =>
        cannotOpen(
          dataDir,
          `PGlite's WebAssembly did not compile: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause
        )
    })
    const { port } = yield* Effect.acquireRelease(startWorker(dataDir, sharedBuffers, wasm), stopWorker)
    return { host: "127.0.0.1", port } satisfies EmbeddedPostgres
  })

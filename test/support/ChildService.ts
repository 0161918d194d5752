// The service as a real child process, for what only a process shows: signals, exit codes, memory,
// several instances on one database. It runs the production bundle (what `npm run build:server`
// makes and `npm start` runs), built once per test file into a folder of its own under dist/ (so
// that its imports resolve node_modules); tsx compiling every module at each start took seconds.
// Configured by environment variables only; its output is kept for the test to read.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as esbuild from "esbuild"
import { freePort } from "./FreePort.js"

export { freePort }

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

/** Builds the server bundle into a fresh folder (removed when the scope closes); returns its entry. */
export const serverBundle = Effect.acquireRelease(
  Effect.promise(async () => {
    const outdir = join(
      root,
      "dist",
      "test-bundles",
      `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`
    )
    mkdirSync(outdir, { recursive: true })
    // The options of `npm run build:server`.
    await esbuild.build({
      entryPoints: [join(root, "src/main.ts"), join(root, "src/foundation/Database/PgliteWorker.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      sourcemap: true,
      outdir,
      entryNames: "[name]",
      outExtension: { ".js": ".mjs" },
      logLevel: "warning"
    })
    return { outdir, entry: join(outdir, "main.mjs") }
  }),
  ({ outdir }) => Effect.sync(() => rmSync(outdir, { recursive: true, force: true }))
).pipe(Effect.map(({ entry }) => entry))

export interface ChildService {
  readonly port: number
  readonly url: string
  readonly child: ChildProcess
  /** Everything it wrote, stdout and stderr interleaved. */
  readonly output: () => string
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>
  /** The process's resident memory now, in MiB. */
  readonly rssMiB: () => number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const residentMiB = (pid: number | undefined): number => {
  if (pid === undefined) return 0
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((text) => text.startsWith("VmRSS:"))
    return line === undefined ? 0 : Number(line.replace(/\D+/g, "")) / 1024
  } catch {
    return 0
  }
}

/**
 * Starts the bundle `entry` on `port` with `env` (on top of a minimal environment), and resolves once it
 * answers `GET /readyz` with 200; rejects with its output if it exits or is not ready in time.
 */
export const spawnService = async (
  entry: string,
  env: Record<string, string>,
  port: number,
  readyWithinMs = 60_000
): Promise<ChildService> => {
  let output = ""
  const child = spawn(process.execPath, ["--enable-source-maps", entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"))
  )
  let ended: number | string | undefined
  void exited.then((code) => {
    ended = code
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + readyWithinMs
  for (;;) {
    if (ended !== undefined) throw new Error(`The service exited (${ended}) before it was ready:\n${output}`)
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`The service was not ready within ${readyWithinMs} ms:\n${output}`)
    }
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.status === 200,
      () => false
    )
    if (ready) break
    await sleep(100)
  }
  return { port, url, child, output: () => output, exited, rssMiB: () => residentMiB(child.pid) }
}

/** A child service running `entry`, killed if it still runs when the scope closes. */
export const childService = (entry: string, env: Record<string, string>, port?: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => spawnService(entry, env, port ?? (await freePort()))),
    (service) =>
      Effect.promise(async () => {
        if (service.child.exitCode === null && service.child.signalCode === null) {
          service.child.kill("SIGKILL")
          await service.exited
        }
      })
  )

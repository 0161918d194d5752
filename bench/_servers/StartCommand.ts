// Our server as `npm start` runs it (the bundled build under plain node with the start script's own
// flags, the fixed young generation among them), and the snapshot it serves, for every bench.
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "../..")

/** Builds the server bundle; returns node's arguments to run it with the start script's flags. */
export const startCommand = (): ReadonlyArray<string> => {
  const bundle = spawnSync("npm", ["run", "--silent", "build:server"], { cwd: root, stdio: "inherit" })
  if (bundle.status !== 0) throw new Error("npm run build:server failed")
  const startScript = (
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  ).scripts.start
  const flags = /node ((?:--\S+ )*)dist\/server\/main\.mjs/.exec(startScript)?.[1]?.trim().split(" ") ?? []
  return [...flags, "dist/server/main.mjs"]
}

/**
 * node's arguments for the catalog build as `npm run build:catalog` runs it (its node flags, a larger
 * young generation among them), followed by `args`.
 */
export const buildCommand = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const script = (
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts["build:catalog"]
  const flags = /^node (.+) build\/main\.ts$/.exec(script ?? "")?.[1]?.split(" ")
  if (flags === undefined) throw new Error(`build:catalog is not "node <flags> build/main.ts": ${script}`)
  return [...flags, "build/main.ts", ...args]
}

/** Starts `node <args>` with `env` added and waits for its ready line; returns it and how long it took. */
export const startServer = (args: ReadonlyArray<string>, env: Record<string, string>, ready: RegExp) =>
  new Promise<{ child: ChildProcess; startupMs: number }>((resolveStart, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (ready.test(output)) resolveStart({ child, startupMs: performance.now() - started })
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", onData)
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)))
  })

/** Starts our server (`startCommand`) with `env` added, resolving once it says it listens. */
export const startOurServer = (command: ReadonlyArray<string>, env: Record<string, string>) =>
  startServer(command, env, /Listening on/).then(({ child }) => child)

/**
 * Builds a catalog snapshot into `out` (from `feed`, else `content/`) unless an up-to-date one is
 * there: kept between runs, rebuilt when the build step or its input changed.
 */
export const ensureSnapshot = (out: string, feed?: string): void => {
  const build = spawnSync(
    process.execPath,
    buildCommand(["--if-stale", "--quiet", "--out", out, ...(feed ? ["--feed", feed] : [])]),
    { cwd: root, stdio: "inherit" }
  )
  if (build.status !== 0) throw new Error(`building the snapshot in ${out} failed`)
}

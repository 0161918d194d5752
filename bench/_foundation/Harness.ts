// What the foundation benchmarks share: a throwaway database on the PostgreSQL of
// BENCH_DATABASE_URL (or TEST_DATABASE_URL), the service and the baseline each in their own
// process, and autocannon runs alternating baseline and service after a warm-up.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Pg from "pg"
import { startCommand } from "../_servers/StartCommand.js"
import type { BetterAuthSetup } from "./BetterAuthServer.js"

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..")
/** autocannon's command-line script, run in a process of its own (from bench/node_modules). */
export const autocannonScript = createRequire(import.meta.url).resolve("autocannon/autocannon.js")
export const COOKIE = "__Secure-service.session_token"
export const ORIGIN = "http://bench.test"
/** Raised for both servers so the limiter runs on every request but never refuses. */
export const RATE_LIMIT = 1_000_000
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/**
 * Starts `node --import tsx <args>` (or `node <args>` for a built script) and resolves once its
 * stdout shows `readyText`.
 */
export const startProcess = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  readyText: string,
  viaTsx = true
) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, viaTsx ? ["--import", "tsx", ...args] : args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(readyText)) resolve(child)
    })
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${output}`)))
  })

export interface Measure {
  readonly requests: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  /** CPU time of the server process per answered request, in µs. */
  readonly cpuMicros: number
}

/** A server under test: its URL and process id (for its CPU time). */
export interface Server {
  readonly url: string
  readonly pid: number
}

/** User + system CPU seconds a process has used so far (Linux `/proc/<pid>/stat`, 100 ticks a second). */
export const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const autocannon = (server: Server, path: string, headers: Record<string, string>): Measure => {
  const url = `${server.url}${path}`
  const args = [autocannonScript, "-j", "-c", String(CONNECTIONS)]
  args.push("-d", String(DURATION_SECONDS))
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`)
  args.push(url)
  const cpuBefore = cpuSeconds(server.pid)
  const result = JSON.parse(execFileSync(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }).toString())
  const cpu = cpuSeconds(server.pid) - cpuBefore
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMicros: (cpu * 1e6) / Math.max(1, result.requests.total)
  }
}

/**
 * Loads `path` on both servers with `headers`: one warm-up run each, then baseline and service
 * alternately, twice, keeping the better run of each. Any non-2xx answer fails the benchmark.
 * Returns a Markdown table row.
 */
export const compare = (
  label: string,
  baseline: Server,
  service: Server,
  path: string,
  headers: Record<string, string>
): string => {
  autocannon(baseline, path, headers)
  autocannon(service, path, headers)
  const runs = { baseline: [] as Array<Measure>, service: [] as Array<Measure> }
  for (let round = 0; round < 2; round++) {
    runs.baseline.push(autocannon(baseline, path, headers))
    runs.service.push(autocannon(service, path, headers))
  }
  const best = (ms: Array<Measure>) => ms.reduce((a, b) => (b.requests > a.requests ? b : a))
  const b = best(runs.baseline)
  const s = best(runs.service)
  if (b.non2xx + s.non2xx > 0) throw new Error(`Non-2xx answers during ${label}: ${b.non2xx} / ${s.non2xx}`)
  return `| ${label} | ${b.requests.toFixed(0)} | ${s.requests.toFixed(0)} | ${(s.requests / b.requests).toFixed(2)} | ${b.p50} / ${b.p99} | ${s.p50} / ${s.p99} | ${b.cpuMicros.toFixed(0)} / ${s.cpuMicros.toFixed(0)} |`
}

/**
 * The same kind of alternation against the peer (Better Auth), which answers its own closest
 * equivalent at its own path and headers. Returns a Markdown table row.
 */
export const comparePeer = (
  label: string,
  service: Server,
  servicePath: string,
  serviceHeaders: Record<string, string>,
  peer: Server,
  peerPath: string,
  peerHeaders: Record<string, string>
): string => {
  autocannon(peer, peerPath, peerHeaders)
  autocannon(service, servicePath, serviceHeaders)
  const runs = { peer: [] as Array<Measure>, service: [] as Array<Measure> }
  for (let round = 0; round < 2; round++) {
    runs.peer.push(autocannon(peer, peerPath, peerHeaders))
    runs.service.push(autocannon(service, servicePath, serviceHeaders))
  }
  const best = (ms: Array<Measure>) => ms.reduce((a, b) => (b.requests > a.requests ? b : a))
  const p = best(runs.peer)
  const s = best(runs.service)
  if (p.non2xx + s.non2xx > 0) throw new Error(`Non-2xx answers during ${label}: ${p.non2xx} / ${s.non2xx}`)
  return `| ${label} | ${p.requests.toFixed(0)} | ${s.requests.toFixed(0)} | ${(s.requests / p.requests).toFixed(2)} | ${p.p50} / ${p.p99} | ${s.p50} / ${s.p99} | ${p.cpuMicros.toFixed(0)} / ${s.cpuMicros.toFixed(0)} |`
}

export const peerTableHeader = [
  "| request | Better Auth req/s | service req/s | service / Better Auth | Better Auth p50 / p99 ms | service p50 / p99 ms | CPU µs per request, Better Auth / service |",
  "|---|---|---|---|---|---|---|"
]

export const tableHeader = [
  "| request | baseline req/s | service req/s | service / baseline | baseline p50 / p99 ms | service p50 / p99 ms | CPU µs per request, baseline / service |",
  "|---|---|---|---|---|---|---|"
]

/** Fails unless both servers answer `path` with the same status and JSON. */
export const sameAnswers = async (
  baseline: Server,
  service: Server,
  path: string,
  headers: Record<string, string>
) => {
  const [a, b] = await Promise.all(
    [service, baseline].map(async (server) => {
      const response = await fetch(`${server.url}${path}`, { headers })
      return `${response.status} ${await response.text()}`
    })
  )
  if (a !== b)
    throw new Error(
      `Answers differ for ${path}:\n  service  ${a?.slice(0, 500)}\n  baseline ${b?.slice(0, 500)}`
    )
}

export interface BenchContext {
  /** The throwaway database's URL. */
  readonly databaseUrl: string
  /** The running service (`src/main.ts`, catalog off, pool of 10) on that database. */
  readonly service: Server
  /** Starts a baseline: this benchmark's file run with `--serve-baseline <databaseUrl> <port>`. */
  readonly startBaseline: (file: string) => Promise<Server>
  /**
   * Starts Better Auth on a database of its own on the same server, with an organization of
   * `members` members (bench/_foundation/BetterAuthServer.ts).
   */
  readonly startBetterAuth: (members: number) => Promise<{ server: Server; setup: BetterAuthSetup }>
  /** A POST to the service with JSON, the public origin, and optionally a session cookie. */
  readonly post: (
    path: string,
    body: unknown,
    cookie?: string
  ) => Promise<{ json: Record<string, unknown>; headers: Headers }>
}

/**
 * Runs `body` with a fresh database and the service started on it (catalog off unless `serviceEnv`
 * says otherwise); removes both afterwards.
 */
export const withBenchDatabase = async (
  body: (context: BenchContext) => Promise<void>,
  serviceEnv: Record<string, string> = {}
) => {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!baseUrl) {
    console.error(
      "Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server this benchmark may use."
    )
    process.exit(2)
  }
  const name = `foundation_bench_${randomBytes(4).toString("hex")}`
  const admin = new Pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  const databaseUrl = url.toString()
  const children: Array<ChildProcess> = []
  try {
    const servicePort = await freePort()
    const env = {
      DATABASE_URL: databaseUrl,
      PORT: String(servicePort),
      CATALOG_ENABLED: "false",
      PUBLIC_ORIGIN: ORIGIN,
      CREDENTIAL_RATE_LIMIT: String(RATE_LIMIT),
      ...serviceEnv
    }
    // The service as `npm start` runs it (the bundle, its node flags), as the catalog benches do.
    const serviceProcess = await startProcess(startCommand(), env, "Listening on", false)
    children.push(serviceProcess)
    const service = { url: `http://127.0.0.1:${servicePort}`, pid: serviceProcess.pid ?? 0 }
    const post = async (path: string, json: unknown, cookie?: string) => {
      const response = await fetch(`${service.url}/api/v1${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(json)
      })
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
      return { json: (await response.json()) as Record<string, unknown>, headers: response.headers }
    }
    const startBaseline = async (file: string) => {
      const port = await freePort()
      const child = await startProcess([file, "--serve-baseline", databaseUrl, String(port)], {}, "ready")
      children.push(child)
      return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0 }
    }
    const startBetterAuth = async (members: number) => {
      await admin.query(`CREATE DATABASE ${name}_peer`)
      url.pathname = `/${name}_peer`
      const port = await freePort()
      const setupFile = join(tmpdir(), `${name}_peer.json`)
      const child = await startProcess(
        ["bench/_foundation/BetterAuthServer.ts", url.toString(), String(port), String(members), setupFile],
        {},
        "ready"
      )
      children.push(child)
      const setup = JSON.parse(readFileSync(setupFile, "utf8")) as BetterAuthSetup
      return { server: { url: setup.url, pid: child.pid ?? 0 }, setup }
    }
    await body({ databaseUrl, service, startBaseline, startBetterAuth, post })
  } finally {
    for (const child of children) child.kill("SIGTERM")
    await new Promise((resolve) => setTimeout(resolve, 500))
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`DROP DATABASE IF EXISTS ${name}_peer WITH (FORCE)`)
    await admin.end()
  }
}

/** Signs up the bench account and returns its session cookie header value. */
export const benchSession = async (context: BenchContext) => {
  const signedUp = await context.post("/auth/sign-up", {
    email: "bench@example.com",
    password: "bench password",
    name: "Bench"
  })
  const session = /session_token=([^;]*)/.exec(signedUp.headers.get("set-cookie") ?? "")?.[1] ?? ""
  return `${COOKIE}=${session}`
}

// Debian's Prometheus for the metrics tests: `promtool check metrics` judges our text, and a real
// Prometheus (its own process, on loopback, with a temporary configuration and data folder) scrapes
// the service and answers queries through its HTTP API. Where it is not installed the tests that
// need it skip with the reason below (Needs.ts).
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { freePort } from "./FreePort.js"

const prometheusPath = process.env.PROMETHEUS_PATH ?? "/usr/bin/prometheus"
const promtoolPath = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool"

/** Why the Prometheus tests cannot run here, or undefined when they can. */
export const prometheusUnavailable: string | undefined =
  existsSync(prometheusPath) && existsSync(promtoolPath)
    ? undefined
    : `Prometheus: no ${prometheusPath} and ${promtoolPath} (install Debian's prometheus package, or set PROMETHEUS_PATH and PROMTOOL_PATH)`

/** What `promtool check metrics` says of `text` (it reads the exposition on its standard input). */
export const promtoolCheck = (text: string) =>
  Effect.async<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = spawn(promtoolPath, ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on("close", (code) => resume(Effect.succeed({ code, output })))
    child.stdin.end(text)
  })

export interface RunningPrometheus {
  /** Its HTTP API, e.g. `http://127.0.0.1:9090`. */
  readonly url: string
  readonly output: () => string
}

/** A Prometheus scraping `http://127.0.0.1:<targetPort>/metrics` every second, for the scope. */
export const prometheusScraping = (targetPort: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const folder = mkdtempSync(join(tmpdir(), "prometheus-test-"))
      const config = join(folder, "prometheus.yml")
      writeFileSync(
        config,
        [
          "global:",
          "  scrape_interval: 1s",
          "  scrape_timeout: 1s",
          "scrape_configs:",
          "  - job_name: podcast-platform",
          "    static_configs:",
          `      - targets: ["127.0.0.1:${targetPort}"]`,
          ""
        ].join("\n")
      )
      const port = await freePort()
      let output = ""
      const child: ChildProcess = spawn(
        prometheusPath,
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(folder, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`
        ],
        { stdio: ["ignore", "pipe", "pipe"] }
      )
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString()
      })
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString()
      })
      return { child, folder, prometheus: { url: `http://127.0.0.1:${port}`, output: () => output } }
    }),
    ({ child, folder }) =>
      Effect.promise(async () => {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve))
          child.kill("SIGTERM")
          await exited
        }
        rmSync(folder, { recursive: true, force: true })
      })
  ).pipe(Effect.map(({ prometheus }) => prometheus))

interface QueryAnswer {
  readonly status: string
  readonly data?: {
    readonly result: ReadonlyArray<{
      readonly metric: Record<string, string>
      readonly value: [number, string]
    }>
  }
}

/** The instant vector `query` evaluates to, through the HTTP API (empty while nothing matches). */
export const queryPrometheus = (prometheus: RunningPrometheus, query: string) =>
  Effect.promise(async () => {
    try {
      const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(query)}`)
      if (!response.ok) return []
      const answer = (await response.json()) as QueryAnswer
      return answer.data?.result ?? []
    } catch {
      // Not listening yet.
      return []
    }
  })

/** The Prometheus text of METRICS_PORT `port`, with its status and content type. */
export const scrape = (port: number) =>
  Effect.promise(async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`)
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      text: await response.text()
    }
  })

/** The value of the first sample `name{labels}` in Prometheus text that has `labels`, if any. */
export const sample = (
  text: string,
  name: string,
  labels: Record<string, string> = {}
): number | undefined => {
  for (const line of text.split("\n")) {
    const labelled = line.startsWith(`${name}{`)
    if (!labelled && !line.startsWith(`${name} `)) continue
    const inner = labelled ? line.slice(name.length + 1, line.lastIndexOf("}")) : ""
    const found = Object.fromEntries(
      [...inner.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((match) => [
        match[1],
        match[2]
      ])
    )
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(line.slice(line.lastIndexOf(" ") + 1))
    }
  }
  return undefined
}

/**
 * How far the sample moved from `before` to `after` (a missing series counts 0). The metric registry is
 * the process's, and a test file shares its worker with others: a test reads counters as changes.
 */
export const movedSince = (
  before: string,
  after: string,
  name: string,
  labels: Record<string, string> = {}
): number => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0)

// What telemetry costs the hot paths, one run, side by side: our server with no OTEL_* variable and
// no METRICS_PORT (nothing loaded), the same with traces and metrics exported over OTLP/HTTP to a
// collector on loopback (every request sampled, the default parent-based always-on sampler) and
// Prometheus text served on METRICS_PORT, and raw node:http sending the same bytes; on the fast path
// and through the Effect HttpApi (fast path off). The collector here accepts and counts what it is
// sent, so the exporters do their whole work; the run fails if no span reached it.
// `npm run bench -- telemetry`; prints a Markdown table for BENCHMARKS.md.
import type { ChildProcess } from "node:child_process"
import { readFileSync } from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  defaultSeconds,
  type LoadOptions,
  type Measured,
  measure,
  median,
  pairedRatio
} from "./_servers/Load.js"
import { ensureSnapshot, startCommand, startServer } from "./_servers/StartCommand.js"

const snapshot = join(tmpdir(), "bench-snapshot-content")
ensureSnapshot(snapshot)
const manifest = JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8"))
const slug = Object.keys(manifest.transcripts)[0] as string
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

// The collector: an OTLP/HTTP receiver answering each export with an empty (valid) response.
const received = { traces: 0, metrics: 0, bytes: 0 }
const collector = Http.createServer((request, response) => {
  let size = 0
  request.on("data", (chunk: Buffer) => {
    size += chunk.byteLength
  })
  request.on("end", () => {
    received.bytes += size
    if (request.url === "/v1/traces") received.traces++
    if (request.url === "/v1/metrics") received.metrics++
    response.writeHead(200, { "content-type": "application/x-protobuf" }).end()
  })
})
await new Promise<void>((listening) => collector.listen(0, "127.0.0.1", listening))
const collectorPort = (collector.address() as AddressInfo).port

const ourCommand = startCommand()
const ours = (port: number, fastPath: boolean, telemetry: boolean) =>
  startServer(
    [...ourCommand],
    {
      PORT: String(port),
      CATALOG_DIR: snapshot,
      FOUNDATION_ENABLED: "false",
      CATALOG_RATE_LIMIT: "100000000",
      CATALOG_FAST_PATH: String(fastPath),
      ...(telemetry
        ? {
            OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
            OTEL_METRIC_EXPORT_INTERVAL: "5000",
            METRICS_PORT: String(port + 50)
          }
        : {})
    },
    /Listening on/
  )

interface Scenario {
  readonly name: string
  readonly port: number
  readonly path: string
  readonly options?: LoadOptions
  /** The scenario this one is compared with, in the same round. */
  readonly against?: string
}

const servers: Array<ChildProcess> = []
try {
  const started = {
    off: await ours(18_501, true, false),
    on: await ours(18_502, true, true),
    effectOff: await ours(18_503, false, false),
    effectOn: await ours(18_504, false, true),
    raw: await startServer(
      ["--import", "tsx", "bench/_servers/baseline.ts", "raw", "http://127.0.0.1:18501", "18505"],
      { BENCH_SLUG: slug },
      /ready/
    )
  }
  for (const server of Object.values(started)) servers.push(server.child)
  const pids = new Map([
    [18_501, started.off.child.pid],
    [18_502, started.on.child.pid],
    [18_503, started.effectOff.child.pid],
    [18_504, started.effectOn.child.pid],
    [18_505, started.raw.child.pid]
  ])

  const episode = `/v1/episodes/${slug}`
  // Each instance names its own origin in its links, so its bytes and ETag are its own: the four
  // of ours must answer the same bytes but for their origin before anything is measured (raw
  // node:http sends 18501's bytes and headers, copied when it starts, as catalog-rest's does).
  const etags = new Map<number, string>()
  let body: string | undefined
  for (const port of [18_501, 18_502, 18_503, 18_504]) {
    const answer = await fetch(`http://127.0.0.1:${port}${episode}`, {
      headers: { "accept-encoding": "identity" }
    })
    etags.set(port, answer.headers.get("etag") ?? "")
    const text = (await answer.text()).replaceAll(`http://127.0.0.1:${port}`, "ORIGIN")
    if (body !== undefined && text !== body) throw new Error(`port ${port} answers other bytes than 18501`)
    body = text
  }
  const rawEtag = (await fetch(`http://127.0.0.1:18505${episode}`)).headers.get("etag") ?? ""
  etags.set(18_505, rawEtag)
  const notModified = (port: number): LoadOptions => ({
    headers: { "if-none-match": etags.get(port) ?? "" },
    statusClass: 3
  })
  const search = "/v1/episodes?q=tide&limit=10"

  const scenarios: Array<Scenario> = [
    { name: "episode detail 200 — raw node:http", port: 18_505, path: episode },
    {
      name: "episode detail 200 — fast path, telemetry off",
      port: 18_501,
      path: episode,
      against: "episode detail 200 — raw node:http"
    },
    {
      name: "episode detail 200 — fast path, telemetry on",
      port: 18_502,
      path: episode,
      against: "episode detail 200 — fast path, telemetry off"
    },
    { name: "episode detail 304 — raw node:http", port: 18_505, path: episode, options: notModified(18_505) },
    {
      name: "episode detail 304 — fast path, telemetry off",
      port: 18_501,
      path: episode,
      options: notModified(18_501),
      against: "episode detail 304 — raw node:http"
    },
    {
      name: "episode detail 304 — fast path, telemetry on",
      port: 18_502,
      path: episode,
      options: notModified(18_502),
      against: "episode detail 304 — fast path, telemetry off"
    },
    { name: "episode search (one query, cached answer) — telemetry off", port: 18_501, path: search },
    {
      name: "episode search (one query, cached answer) — telemetry on",
      port: 18_502,
      path: search,
      against: "episode search (one query, cached answer) — telemetry off"
    },
    {
      name: "episode detail 200 — Effect HttpApi, telemetry off",
      port: 18_503,
      path: episode,
      against: "episode detail 200 — raw node:http"
    },
    {
      name: "episode detail 200 — Effect HttpApi, telemetry on",
      port: 18_504,
      path: episode,
      against: "episode detail 200 — Effect HttpApi, telemetry off"
    }
  ]

  // In alternation, round after round: a ratio compares two runs of the same round.
  const runs = new Map<string, Array<Measured>>()
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      const measured = await measure(`http://127.0.0.1:${scenario.port}${scenario.path}`, {
        ...scenario.options,
        pid: pids.get(scenario.port)
      })
      runs.set(scenario.name, [...(runs.get(scenario.name) ?? []), measured])
    }
  }
  // Metrics are pushed every 5 s: wait for one more push, then check both signals arrived.
  await new Promise((resolve) => setTimeout(resolve, 6000))
  if (received.traces === 0 || received.metrics === 0) {
    throw new Error(`the collector received ${received.traces} trace and ${received.metrics} metric exports`)
  }
  const scrape = await fetch("http://127.0.0.1:18552/metrics")
  const text = await scrape.text()
  if (!text.includes("http_server_request_duration_seconds"))
    throw new Error("METRICS_PORT served no request metric")

  const format = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
  const row = (scenario: Scenario) => {
    const own = runs.get(scenario.name) as Array<Measured>
    const base = scenario.against === undefined ? undefined : (runs.get(scenario.against) as Array<Measured>)
    const ratio = base
      ? pairedRatio(own.map((m, i) => m.requestsPerSecond / (base[i] as Measured).requestsPerSecond))
      : "—"
    const cpus = own.flatMap((m) => (m.cpuMicroseconds === undefined ? [] : [m.cpuMicroseconds]))
    const cpu = cpus.length === 0 ? "—" : median(cpus).toFixed(0)
    return `| ${scenario.name} | ${format(median(own.map((m) => m.requestsPerSecond)))} | ${median(own.map((m) => m.p50))} | ${median(own.map((m) => m.p99))} | ${cpu} | ${scenario.against ?? "—"} | ${ratio} |`
  }
  console.log(`
### Telemetry's cost (demo podcast snapshot, episode ${slug}, identity encoding)

autocannon, 32 connections, ${defaultSeconds} s per run after a 2 s warm-up, ${rounds} rounds in alternation; each server in its own process on this 2-core machine. "Telemetry on": OTEL_EXPORTER_OTLP_ENDPOINT at a collector on loopback (every request a sampled span, exported in batches; metrics pushed every 5 s) and METRICS_PORT serving Prometheus text. The collector received ${received.traces} trace exports and ${received.metrics} metric exports (${(received.bytes / 1e6).toFixed(1)} MB).

| scenario | req/s | p50 ms | p99 ms | server CPU µs/request | against | req/s ratio |
|---|---|---|---|---|---|---|
${scenarios.map(row).join("\n")}
`)
} finally {
  for (const child of servers) child.kill()
  collector.close()
}

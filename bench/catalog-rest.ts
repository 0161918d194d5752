// Catalog REST benchmark, one run, side by side, each server in its own process and autocannon in
// this one: our episode detail (200 and 304), transcript detail and transcript search, against raw
// node:http and Fastify serving the same bytes; plus our Effect-only path (fast path off) and the
// server's start-up time. Uses a snapshot of the Changelog master feed when ../shared is present
// (built once into the temp folder, or BENCH_SNAPSHOT), else the demo podcast.
// `npm run bench -- catalog-rest`; prints a Markdown table for BENCHMARKS.md.
import type { ChildProcess } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import {
  defaultConnections as connections,
  cpuTime,
  type Measured,
  measure,
  median,
  pairedRatio,
  defaultSeconds as seconds,
  settled
} from "./_servers/Load.js"
import { ensureSnapshot, startCommand, startServer } from "./_servers/StartCommand.js"

const root = resolve(import.meta.dirname, "..")
const corpusFeed = resolve(root, "../shared/corpus/changelog/feeds/changelog-master.xml")
const useCorpus = existsSync(corpusFeed)
const snapshot =
  process.env.BENCH_SNAPSHOT ??
  join(tmpdir(), useCorpus ? "bench-snapshot-changelog-master" : "bench-snapshot-content")

ensureSnapshot(snapshot, useCorpus ? corpusFeed : undefined)
// With the corpus, our server also runs over the small demo snapshot: the same 304 with a small
// heap shows what holding the large catalog in memory costs the hot path.
const demoSnapshot = useCorpus ? join(tmpdir(), "bench-snapshot-content") : undefined
if (demoSnapshot) ensureSnapshot(demoSnapshot, undefined)
const manifest = JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8"))
const slug = Object.keys(manifest.transcripts)[0] as string

// Our server runs as `npm start` runs it: the bundled build, plain node with the same flags.
const ourCommand = startCommand()
const ours = (port: number, fastPath: boolean, directory = snapshot) =>
  startServer(
    [...ourCommand],
    {
      PORT: String(port),
      CATALOG_DIR: directory,
      FOUNDATION_ENABLED: "false",
      CATALOG_RATE_LIMIT: "100000000",
      CATALOG_FAST_PATH: String(fastPath)
    },
    /Listening on/
  )
const baseline = (kind: "raw" | "fastify", port: number) =>
  startServer(
    ["--import", "tsx", "bench/_servers/baseline.ts", kind, "http://127.0.0.1:18401", String(port)],
    { BENCH_SLUG: slug },
    /ready/
  )

// Two-word queries from mid-frequency terms: more distinct queries than the caches hold, so every
// search is computed afresh (the LRU caches miss on a cycle longer than their capacity).
const searchData = JSON.parse(readFileSync(join(snapshot, manifest.collections.searchData), "utf8"))
const frequency = searchData.statistics.documentFrequency as Record<string, number>
const terms = Object.entries(frequency)
  .filter(([term, count]) => count >= 20 && count <= 2000 && /^[a-z]{4,}$/.test(term))
  .map(([term]) => term)
const queries: Array<string> = []
for (let i = 0; queries.length < 5000 && i < terms.length * 3; i++) {
  const a = terms[(i * 7919) % terms.length]
  const b = terms[(i * 104_729 + 13) % terms.length]
  if (a !== b) queries.push(`/v1/transcripts/search?q=${a}%20${b}&limit=10`)
}
const singleWord = terms.slice(0, 5000).map((term) => `/v1/transcripts/search?q=${term}&limit=10`)

const episodePath = `/v1/episodes/${slug}`
const transcriptPath = `/v1/transcripts/${slug}`
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

interface Scenario {
  readonly name: string
  readonly url: string
  readonly options?: Parameters<typeof measure>[1]
  /** The name of the scenario this one is compared with. */
  readonly baseline?: string
}

const servers: Array<ChildProcess> = []
try {
  const fast = await ours(18_401, true)
  servers.push(fast.child)
  const listening = { at: performance.now(), cpu: cpuTime(fast.child.pid) ?? 0 }
  const raw = await baseline("raw", 18_403)
  servers.push(raw.child)
  const fastify = await baseline("fastify", 18_404)
  servers.push(fastify.child)
  const demo = demoSnapshot === undefined ? undefined : await ours(18_405, true, demoSnapshot)
  if (demo) servers.push(demo.child)
  // autocannon sends no Accept-Encoding, so it is answered the identity bytes: revalidate with their
  // tag (fetch would ask for gzip and get the tag of the gzip bytes, which matches nothing here).
  const identityEtag = async (url: string) =>
    (await fetch(url, { headers: { "accept-encoding": "identity" } })).headers.get("etag") ?? ""
  const etag = await identityEtag(`http://127.0.0.1:18401${episodePath}`)
  // The baselines copied our bytes and headers when they started: check that they send them.
  for (const path of [episodePath, transcriptPath]) {
    const bodies = await Promise.all(
      [18_401, 18_403, 18_404].map(async (port) => {
        const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { "accept-encoding": "identity" }
        })
        return `${answer.headers.get("etag")} ${answer.headers.get("cache-control")} ${await answer.text()}`
      })
    )
    if (new Set(bodies).size !== 1)
      throw new Error(`${path}: the baselines do not send our bytes and headers`)
  }
  // Measured only once every server is quiet: our catalog warms its search data up in the background
  // after it listens (seconds of its event loop on the master snapshot), which landed in the first
  // round's runs, ours or a baseline's, and in our server's CPU figures.
  for (const child of servers) await settled(child.pid)
  const quiet = `quiet ${((performance.now() - listening.at) / 1000).toFixed(1)} s after it listened, having used ${(((cpuTime(fast.child.pid) ?? 0) - listening.cpu) / 1e6).toFixed(1)} s of CPU since`
  const notModified = { headers: { "if-none-match": etag }, statusClass: 3 as const }
  const demoSlug = demoSnapshot
    ? (Object.keys(
        JSON.parse(readFileSync(join(demoSnapshot, "manifest.json"), "utf8")).episodes
      )[0] as string)
    : undefined
  const demoEtag = demoSlug ? await identityEtag(`http://127.0.0.1:18405/v1/episodes/${demoSlug}`) : ""

  const scenarios: Array<Scenario> = [
    { name: "episode detail 200 — raw node:http", url: `http://127.0.0.1:18403${episodePath}` },
    {
      name: "episode detail 200 — ours (fast path)",
      url: `http://127.0.0.1:18401${episodePath}`,
      baseline: "episode detail 200 — raw node:http"
    },
    {
      name: "episode detail 200 — Fastify",
      url: `http://127.0.0.1:18404${episodePath}`,
      baseline: "episode detail 200 — raw node:http"
    },
    {
      name: "episode detail 304 — raw node:http",
      url: `http://127.0.0.1:18403${episodePath}`,
      options: notModified
    },
    {
      name: "episode detail 304 — ours (fast path)",
      url: `http://127.0.0.1:18401${episodePath}`,
      options: notModified,
      baseline: "episode detail 304 — raw node:http"
    },
    {
      name: "episode detail 304 — Fastify",
      url: `http://127.0.0.1:18404${episodePath}`,
      options: notModified,
      baseline: "episode detail 304 — raw node:http"
    },
    ...(demoSlug === undefined
      ? []
      : [
          {
            name: "episode detail 304 — ours (fast path), over the demo snapshot instead (small heap)",
            url: `http://127.0.0.1:18405/v1/episodes/${demoSlug}`,
            options: { headers: { "if-none-match": demoEtag }, statusClass: 3 as const },
            baseline: "episode detail 304 — raw node:http"
          }
        ]),
    { name: "transcript detail 200 — raw node:http", url: `http://127.0.0.1:18403${transcriptPath}` },
    {
      name: "transcript detail 200 — ours (fast path)",
      url: `http://127.0.0.1:18401${transcriptPath}`,
      baseline: "transcript detail 200 — raw node:http"
    },
    {
      name: "transcript detail 200 — Fastify",
      url: `http://127.0.0.1:18404${transcriptPath}`,
      baseline: "transcript detail 200 — raw node:http"
    }
  ]
  const searches: Array<Scenario> = [
    {
      name: `transcript search — ${queries.length} distinct two-word queries, uncached`,
      url: "http://127.0.0.1:18401",
      options: { paths: queries }
    },
    {
      name: `transcript search — ${singleWord.length} distinct one-word queries, uncached`,
      url: "http://127.0.0.1:18401",
      options: { paths: singleWord }
    },
    {
      name: `transcript search — ${queries.length} distinct two-word queries, uncached, 4 connections (latency)`,
      url: "http://127.0.0.1:18401",
      options: { paths: [...queries].reverse(), connections: 4 }
    },
    {
      name: `transcript search — ${singleWord.length} distinct one-word queries, uncached, 4 connections (latency)`,
      url: "http://127.0.0.1:18401",
      options: { paths: [...singleWord].reverse(), connections: 4 }
    },
    {
      name: "transcript search — one query repeated (cached answer)",
      url: `http://127.0.0.1:18401${queries[0] ?? ""}`
    }
  ]

  const pids = new Map([
    ["18401", fast.child.pid],
    ["18403", raw.child.pid],
    ["18404", fastify.child.pid],
    ["18405", demo?.child.pid]
  ])
  const withPid = (scenario: Scenario) => ({ ...scenario.options, pid: pids.get(new URL(scenario.url).port) })

  // Servers are measured in alternation, several rounds: each round measures every server back to
  // back, so a ratio within one round compares runs made under the same conditions, and the median
  // of those ratios over the rounds is what a slowdown of the shared machine disturbs least.
  const runs = new Map<string, Array<Measured>>()
  const record = (name: string, measured: Measured) => runs.set(name, [...(runs.get(name) ?? []), measured])
  const measureRounds = async (list: ReadonlyArray<Scenario>) => {
    for (let round = 0; round < rounds; round++) {
      for (const scenario of list) record(scenario.name, await measure(scenario.url, withPid(scenario)))
    }
  }
  await measureRounds(scenarios)
  for (const scenario of searches) record(scenario.name, await measure(scenario.url, withPid(scenario)))

  // The Effect-only server runs on its own afterwards: it holds the same large catalog and makes
  // far more garbage per request, and its collections, idle or not, would land in the other
  // servers' runs. Raw node:http is measured again beside it, so its ratios are paired too.
  for (const child of [demo?.child, fastify.child]) child?.kill()
  const routed = await ours(18_402, false)
  servers.push(routed.child)
  pids.set("18402", routed.child.pid)
  await settled(routed.child.pid)
  // Its links name its own origin, so its bytes and ETag are its own (the same length as ours).
  const routedNotModified = {
    headers: { "if-none-match": await identityEtag(`http://127.0.0.1:18402${episodePath}`) },
    statusClass: 3 as const
  }
  const rawAgain = (status: string) => `episode detail ${status} — raw node:http, beside the Effect path`
  const effectPath: Array<Scenario> = [
    { name: rawAgain("200"), url: `http://127.0.0.1:18403${episodePath}` },
    {
      name: "episode detail 200 — ours, Effect HttpApi path",
      url: `http://127.0.0.1:18402${episodePath}`,
      baseline: rawAgain("200")
    },
    { name: rawAgain("304"), url: `http://127.0.0.1:18403${episodePath}`, options: notModified },
    {
      name: "episode detail 304 — ours, Effect HttpApi path",
      url: `http://127.0.0.1:18402${episodePath}`,
      options: routedNotModified,
      baseline: rawAgain("304")
    }
  ]
  await measureRounds(effectPath)

  const format = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
  const row = (scenario: Scenario) => {
    const own = runs.get(scenario.name) as Array<Measured>
    const base =
      scenario.baseline === undefined ? undefined : (runs.get(scenario.baseline) as Array<Measured>)
    const isBaseline = scenario.name.includes("raw")
    const ratio = base
      ? pairedRatio(own.map((m, i) => m.requestsPerSecond / (base[i] as Measured).requestsPerSecond))
      : isBaseline
        ? "1.00×"
        : "—"
    const cpus = own.flatMap((m) => (m.cpuMicroseconds === undefined ? [] : [m.cpuMicroseconds]))
    const cpu = cpus.length === 0 ? "—" : median(cpus).toFixed(0)
    const cpuRatios = base
      ? own.flatMap((m, i) => {
          const b = (base[i] as Measured).cpuMicroseconds
          return b === undefined || m.cpuMicroseconds === undefined ? [] : [b / m.cpuMicroseconds]
        })
      : []
    const cpuRatio = cpuRatios.length > 0 ? pairedRatio(cpuRatios) : isBaseline ? "1.00×" : "—"
    const requests = median(own.map((m) => m.requestsPerSecond))
    const p50 = median(own.map((m) => m.p50))
    const p99 = median(own.map((m) => m.p99))
    return `| ${scenario.name} | ${format(requests)} | ${p50} | ${p99} | ${ratio} | ${cpu} | ${cpuRatio} |`
  }
  const versusFastify = (kind: string) => {
    const own = runs.get(`${kind} — ours (fast path)`) as Array<Measured>
    const fastifyRuns = runs.get(`${kind} — Fastify`) as Array<Measured>
    const ratios = own.map((m, i) => m.requestsPerSecond / (fastifyRuns[i] as Measured).requestsPerSecond)
    const ahead = ratios.filter((r) => r > 1).length
    return `- ${kind}: ours / Fastify ${pairedRatio(ratios)}, ahead in ${ahead} of ${ratios.length} rounds`
  }
  console.log(`
### Catalog REST (${useCorpus ? "changelog-master.xml snapshot" : "demo podcast snapshot"}: ${manifest.counts.episodes} episodes, ${manifest.counts.transcripts} transcripts, ${manifest.counts.paragraphs} paragraphs)

autocannon, ${connections} connections unless a row says otherwise, ${seconds} s per run after a 2 s warm-up; every server in its own process on this 2-core machine, autocannon in another, measured once each server is quiet (our catalog's warm-up done: ${quiet}). Detail rows: ${rounds} rounds in alternation; each figure is the median over the rounds, and a ratio is the median of the ratios within each round (their range in brackets). Every run is checked to have been answered only 200s, or only 304s for the 304 rows. Our Effect-only server (fast path off) is started and measured after the others, beside raw node:http again, so that its garbage collections do not land in their runs. Episode ${slug}, identity encoding. Load average ${loadavg()[0]?.toFixed(2)} at the end.
Start-up of our server with this snapshot (process start to listening, snapshot verified and indexes loaded): **${(fast.startupMs / 1000).toFixed(2)} s**.

| scenario | req/s | p50 ms | p99 ms | req/s vs raw node:http | server CPU µs/request | CPU efficiency vs raw |
|---|---|---|---|---|---|---|
${[...scenarios, ...effectPath.filter((scenario) => scenario.baseline !== undefined), ...searches].map(row).join("\n")}

${["episode detail 200", "episode detail 304", "transcript detail 200"].map(versusFastify).join("\n")}
`)
} finally {
  for (const child of servers) child.kill()
}

// Catalog REST benchmark, one run, side by side, each server in its own process and autocannon in
// this one: our episode detail (200 and 304), transcript detail and transcript search, against raw
// node:http and Fastify serving the same bytes; plus our Effect-only path (fast path off) and the
// server's start-up time. Uses a snapshot of the Changelog master feed when ../shared is present
// (built once into the temp folder, or BENCH_SNAPSHOT), else the demo podcast.
// `npm run bench -- catalog-rest`; prints a Markdown table for BENCHMARKS.md.
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import autocannon from "autocannon"

const root = resolve(import.meta.dirname, "..")
const corpusFeed = resolve(root, "../shared/corpus/changelog/feeds/changelog-master.xml")
const useCorpus = existsSync(corpusFeed)
const snapshot =
  process.env.BENCH_SNAPSHOT ??
  join(tmpdir(), useCorpus ? "bench-snapshot-changelog-master" : "bench-snapshot-content")
if (!existsSync(join(snapshot, "manifest.json"))) {
  console.log(`building ${snapshot} …`)
  const build = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "build/main.ts",
      "--quiet",
      "--out",
      snapshot,
      ...(useCorpus ? ["--feed", corpusFeed] : [])
    ],
    { cwd: root, stdio: "inherit" }
  )
  if (build.status !== 0) process.exit(1)
}
const manifest = JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8"))
const slug = Object.keys(manifest.transcripts)[0] as string
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)

/** Starts a server process and waits for its ready line; returns it and how long it took. */
const startServer = (args: Array<string>, env: Record<string, string>, ready: RegExp) =>
  new Promise<{ child: ChildProcess; startupMs: number }>((resolveStart, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
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

const ours = (port: number, fastPath: boolean) =>
  startServer(
    ["src/main.ts"],
    {
      PORT: String(port),
      CATALOG_DIR: snapshot,
      FOUNDATION_ENABLED: "false",
      CATALOG_RATE_LIMIT: "100000000",
      CATALOG_FAST_PATH: String(fastPath)
    },
    /Listening on/
  )
const baseline = (kind: "raw" | "fastify", port: number) =>
  startServer(["bench/_servers/baseline.ts", kind, snapshot, String(port)], { BENCH_SLUG: slug }, /ready/)

interface Measured {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

const measure = async (
  url: string,
  options: { readonly headers?: Record<string, string>; readonly paths?: ReadonlyArray<string> } = {}
): Promise<Measured> => {
  const run = (duration: number) =>
    autocannon({
      url,
      connections,
      duration,
      headers: options.headers ?? {},
      ...(options.paths ? { requests: options.paths.map((path) => ({ method: "GET" as const, path })) } : {})
    })
  await run(2)
  const result = await run(seconds)
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx
  }
}

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

const rows: Array<[string, Measured, Measured | undefined]> = []
const episodePath = `/v1/episodes/${slug}`
const transcriptPath = `/v1/transcripts/${slug}`

const servers: Array<ChildProcess> = []
try {
  const fast = await ours(18_401, true)
  servers.push(fast.child)
  const routed = await ours(18_402, false)
  servers.push(routed.child)
  const raw = await baseline("raw", 18_403)
  servers.push(raw.child)
  const fastify = await baseline("fastify", 18_404)
  servers.push(fastify.child)

  const etag = (await fetch(`http://127.0.0.1:18401${episodePath}`)).headers.get("etag") ?? ""
  const rawEpisode = await measure(`http://127.0.0.1:18403${episodePath}`)
  const rawNotModified = await measure(`http://127.0.0.1:18403${episodePath}`, {
    headers: { "if-none-match": etag }
  })
  const rawTranscript = await measure(`http://127.0.0.1:18403${transcriptPath}`)

  rows.push([
    "episode detail 200 — ours (fast path)",
    await measure(`http://127.0.0.1:18401${episodePath}`),
    rawEpisode
  ])
  rows.push(["episode detail 200 — raw node:http", rawEpisode, rawEpisode])
  rows.push([
    "episode detail 200 — Fastify",
    await measure(`http://127.0.0.1:18404${episodePath}`),
    rawEpisode
  ])
  rows.push([
    "episode detail 200 — ours, Effect HttpApi path",
    await measure(`http://127.0.0.1:18402${episodePath}`),
    rawEpisode
  ])
  rows.push([
    "episode detail 304 — ours (fast path)",
    await measure(`http://127.0.0.1:18401${episodePath}`, { headers: { "if-none-match": etag } }),
    rawNotModified
  ])
  rows.push(["episode detail 304 — raw node:http", rawNotModified, rawNotModified])
  rows.push([
    "episode detail 304 — Fastify",
    await measure(`http://127.0.0.1:18404${episodePath}`, { headers: { "if-none-match": etag } }),
    rawNotModified
  ])
  rows.push([
    "episode detail 304 — ours, Effect HttpApi path",
    await measure(`http://127.0.0.1:18402${episodePath}`, { headers: { "if-none-match": etag } }),
    rawNotModified
  ])
  rows.push([
    "transcript detail 200 — ours (fast path)",
    await measure(`http://127.0.0.1:18401${transcriptPath}`),
    rawTranscript
  ])
  rows.push(["transcript detail 200 — raw node:http", rawTranscript, rawTranscript])
  rows.push([
    `transcript search — ${queries.length} distinct two-word queries, uncached`,
    await measure("http://127.0.0.1:18401", { paths: queries }),
    undefined
  ])
  rows.push([
    `transcript search — ${singleWord.length} distinct one-word queries, uncached`,
    await measure("http://127.0.0.1:18401", { paths: singleWord }),
    undefined
  ])
  rows.push([
    "transcript search — one query repeated (cached answer)",
    await measure(`http://127.0.0.1:18401${queries[0]?.slice(0) ?? ""}`),
    undefined
  ])

  const format = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
  console.log(`
### Catalog REST (${useCorpus ? "changelog-master.xml snapshot" : "demo podcast snapshot"}: ${manifest.counts.episodes} episodes, ${manifest.counts.transcripts} transcripts, ${manifest.counts.paragraphs} paragraphs)

autocannon, ${connections} connections, ${seconds} s per row after a 2 s warm-up; every server in its own process on this 2-core machine, autocannon in another. Episode ${slug}, identity encoding.
Start-up of our server with this snapshot (process start to listening, snapshot verified and indexes loaded): **${(fast.startupMs / 1000).toFixed(2)} s**.

| scenario | req/s | p50 ms | p99 ms | vs raw node:http |
|---|---|---|---|---|
${rows
  .map(
    ([name, m, base]) =>
      `| ${name} | ${format(m.requestsPerSecond)} | ${m.p50} | ${m.p99} | ${base ? `${(m.requestsPerSecond / base.requestsPerSecond).toFixed(2)}×` : "—"} |${m.non2xx > 0 && !name.includes("304") ? ` (${m.non2xx} non-2xx)` : ""}`
  )
  .join("\n")}
`)
} finally {
  for (const child of servers) child.kill()
}

// The snapshot's search page on the Changelog corpus (../shared/corpus, CC BY-SA 4.0), in Chromium,
// against issue 25's budgets: the corpus built with the project's build (or BENCH_SNAPSHOT, a folder
// built before), served by `python3 -m http.server` with no service running, and for each query:
//  - the page's first load on the wire (a fresh browser context: nothing cached), with the newest
//    episodes shown, budget 300 KB;
//  - what the query then adds on the wire, budget 300 KB each;
//  - its time in the page, from the form's submit to both result lists rendered, budget p95 150 ms:
//    in that fresh context (nothing cached), and again with the queries one after another in one page;
//  - its results (titles, order, snippets) against the snapshot reader's answer read from the folder.
// Against, in the same run: what a browser would download without the split, the whole prebuilt
// indexes' gzip copies. `npm run bench -- static-search`; prints a Markdown row for BENCHMARKS.md.
// `BENCH_SNAPSHOT=dist/catalog npm run bench -- static-search` measures a snapshot already built (the
// demo's, for instance) instead of building the corpus.
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { chromium, type Page } from "playwright-core"
import { passagesPerPage } from "../build/search-page/Paging.js"
import { openSnapshot } from "../packages/snapshot-reader/src/index.js"
import { chromiumFlags, chromiumPath } from "../test/support/Chromium.js"
import { buildCommand } from "./_servers/StartCommand.js"

const corpus = resolve(import.meta.dirname, "../../shared/corpus/changelog")
const feed = join(corpus, "feeds/changelog-master.xml")
if (process.env.BENCH_SNAPSHOT === undefined && !existsSync(feed)) {
  console.log("The corpus is not at ../shared/corpus/changelog; nothing to measure.")
  process.exit(0)
}
if (!existsSync(chromiumPath)) {
  console.log(`No Chromium at ${chromiumPath}; nothing to measure.`)
  process.exit(0)
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

// The snapshot: built now with the project's build, unless given.
const scratch = mkdtempSync(join(tmpdir(), "bench-static-search-"))
const snapshot = process.env.BENCH_SNAPSHOT ?? join(scratch, "snapshot")
if (process.env.BENCH_SNAPSHOT === undefined) {
  const started = performance.now()
  const build = spawnSync(process.execPath, buildCommand(["--quiet", "--feed", feed, "--out", snapshot]), {
    encoding: "utf8"
  })
  if (build.status !== 0) {
    console.error(build.stderr)
    process.exit(1)
  }
  console.log(`built the corpus snapshot in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => done(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

// The whole prebuilt indexes' gzip sizes, read now: a snapshot built here is removed when the page's
// measurements end.
const manifest = JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8")) as {
  indexes: Record<string, ReadonlyArray<readonly [string, string]>>
}
const wholeIndexBytes = new Map(
  Object.entries(manifest.indexes).map(([name, parts]) => [
    name,
    parts.reduce((sum, [, path]) => sum + statSync(join(snapshot, `${path}.gz`)).size, 0)
  ])
)
const wholeIndex = (name: string) => wholeIndexBytes.get(name) ?? 0

const port = await freePort()
const host = `http://127.0.0.1:${port}`
const python: ChildProcess = spawn(
  "python3",
  ["-m", "http.server", "--bind", "127.0.0.1", "--directory", snapshot, String(port)],
  { stdio: "ignore" }
)
const stop = () => {
  python.kill()
  if (process.env.BENCH_SNAPSHOT === undefined) rmSync(scratch, { recursive: true, force: true })
}
for (let tries = 0; ; tries++) {
  const up = await fetch(`${host}/search.json`).then(
    (response) => response.ok,
    () => false
  )
  if (up) break
  if (tries > 100) {
    stop()
    throw new Error("python3 -m http.server did not start")
  }
  await new Promise((done) => setTimeout(done, 100))
}

// The queries: rare and frequent words, phrases, and words of the corpus' own titles.
const reader = await openSnapshot(snapshot)
const queries = [
  "rust",
  "kubernetes maintainers",
  "glacier",
  "open source",
  "the",
  "javascript",
  "maintainer burnout",
  "postgres",
  "webassembly",
  "the and",
  "go modules",
  "machine learning",
  "developer experience",
  "typescript types",
  "elixir phoenix",
  "vim",
  "docker containers",
  "react hooks",
  "database migrations",
  "security vulnerability"
]

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: [...chromiumFlags]
})

/** Bytes on the wire of every response the page got (headers and body as sent), and what left the host. */
const recordWire = (page: Page) => {
  const wire = { bytes: 0, requests: 0, outside: [] as Array<string> }
  page.on("requestfinished", async (request) => {
    if (!request.url().startsWith(`${host}/`)) wire.outside.push(request.url())
    const sizes = await request.sizes()
    wire.bytes += sizes.responseBodySize + sizes.responseHeadersSize
    wire.requests++
  })
  return wire
}

/** Submits `q` in the page and resolves with the milliseconds until both lists show its answer. */
const timedQuery = (page: Page, q: string) =>
  page.evaluate<number>(`new Promise((done, fail) => {
    const q = ${JSON.stringify(q)}
    const status = document.getElementById("status")
    const started = performance.now()
    const observer = new MutationObserver(() => {
      const text = status.textContent || ""
      if (text.includes("\u201c" + q + "\u201d")) {
        observer.disconnect()
        if (text.startsWith("The search failed")) fail(new Error(text))
        else done(performance.now() - started)
      }
    })
    observer.observe(status, { childList: true, characterData: true, subtree: true })
    document.getElementById("q").value = q
    document.getElementById("search").requestSubmit()
  })`)

/** The settled wire bytes: responses finish being counted a moment after the page has used them. */
const settle = () => new Promise((done) => setTimeout(done, 200))

interface Measured {
  readonly q: string
  readonly firstLoad: number
  readonly query: number
  readonly ms: number
  readonly same: boolean
}

const measured: Array<Measured> = []
const session: Array<number> = []
const outside: Array<string> = []
try {
  // One warm-up (the browser's own start-up costs), then each query in a fresh context.
  for (const [round, q] of [queries[0] as string, ...queries].entries()) {
    const context = await browser.newContext()
    const page = await context.newPage()
    const wire = recordWire(page)
    await page.goto(`${host}/`)
    await page.waitForSelector("html[data-ready=true]")
    await settle()
    const firstLoad = wire.bytes
    const ms = await timedQuery(page, q)
    await settle()
    const query = wire.bytes - firstLoad
    const shown = await page.evaluate<{ episodes: Array<string>; passages: Array<[string, string]> }>(
      `({ episodes: [...document.querySelectorAll("#episode-results a.result")].map((a) => a.textContent),
          passages: [...document.querySelectorAll("#transcript-results li")].map((li) => [li.querySelector("a.result").textContent, li.querySelector(".snippet").textContent]) })`
    )
    const [episodes, hits] = await Promise.all([
      reader.searchEpisodes({ q }),
      reader.searchTranscripts({ q, limit: passagesPerPage })
    ])
    const same =
      JSON.stringify(shown) ===
      JSON.stringify({
        episodes: episodes.data.map((episode) => episode.title),
        passages: hits.data.map((hit) => [hit.title, hit.snippet])
      })
    outside.push(...wire.outside)
    await context.close()
    if (round > 0) measured.push({ q, firstLoad, query, ms, same })
  }
  // A session: one page, the queries one after another, as a person searches (the files earlier
  // queries read are kept, as the reader keeps them).
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${host}/`)
  await page.waitForSelector("html[data-ready=true]")
  for (const q of queries) session.push(await timedQuery(page, q))
  await context.close()
} finally {
  await browser.close()
  stop()
}

const firstLoads = measured.map((m) => m.firstLoad)
const queryBytes = measured.map((m) => m.query)
const times = measured.map((m) => m.ms)
for (const m of measured) {
  console.log(
    `${m.q.padEnd(24)} first load ${kb(m.firstLoad).padStart(9)}  query ${kb(m.query).padStart(9)}  ${m.ms.toFixed(1).padStart(7)} ms  ${m.same ? "same as the reader" : "DIFFERENT from the reader"}`
  )
}
const maxFirst = Math.max(...firstLoads)
const maxQuery = Math.max(...queryBytes)
const p50 = percentile(times, 50)
const p95 = percentile(times, 95)
const allSame = measured.every((m) => m.same)
console.log(`
first load: max ${kb(maxFirst)} (budget 300 KB); per query: max ${kb(maxQuery)}, median ${kb(percentile(queryBytes, 50))} (budget 300 KB)
query time in the page: each in a fresh context p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms; one after another in one page p50 ${percentile(session, 50).toFixed(1)} ms, p95 ${percentile(session, 95).toFixed(1)} ms (budget p95 150 ms)
results equal the reader's: ${allSame ? "all" : "NOT all"}; requests outside the static server: ${outside.length}
without the split: the whole transcript index ${kb(wholeIndex("paragraphs"))}, the whole episode index ${kb(wholeIndex("episodes"))} (gzip)

| Static search page on ${process.env.BENCH_SNAPSHOT === undefined ? "the corpus" : `the snapshot in ${snapshot}`} in Chromium (python3 -m http.server, ${measured.length} queries, each in a fresh context) | first load ≤ ${kb(maxFirst)}; per query ≤ ${kb(maxQuery)} (median ${kb(percentile(queryBytes, 50))}); time p50 / p95 ${p50.toFixed(0)} / ${p95.toFixed(0)} ms in a fresh context, ${percentile(session, 50).toFixed(0)} / ${percentile(session, 95).toFixed(0)} ms one after another in one page (budgets: 300 KB, 300 KB, p95 150 ms); results equal the reader's: ${allSame ? "yes" : "no"} | the whole prebuilt indexes a page would load without the split | ${kb(wholeIndex("paragraphs") + wholeIndex("episodes"))} gzip, ${((wholeIndex("paragraphs") + wholeIndex("episodes")) / (maxFirst + maxQuery)).toFixed(0)}× the worst first load and query | ${new Date().toISOString().slice(0, 10)} | \`npm run bench -- static-search\` |`)
if (!allSame || outside.length > 0) process.exitCode = 1

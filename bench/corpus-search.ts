// Uncached search on the real corpus (../shared/corpus, CC BY-SA 4.0), against the search engine's
// own limit in the same run. The master feed is built once into the temp folder (kept between runs,
// rebuilt when the build or the feed changed; or BENCH_SNAPSHOT), our server is started on it as
// `npm start` runs it, and queries are drawn, seeded, from the corpus' own text: a paragraph chosen
// at random, then two or three of its words at random (the corpus' vocabulary as people speak it,
// frequent words as often as they occur). Every query of the run is a distinct set of search terms
// (the caches key by the folded, sorted terms), and each round has its own queries, so no answer or
// ranking cache can help. Each round, back to back:
//  - FlexSearch's own `search` on the same transcript index, in this process, one query after
//    another, as the service calls it (the query's terms, at most 1,000 candidates): the engine's
//    limit, with nothing around it;
//  - REST transcript search, every query once, 32 connections (BENCH_CONNECTIONS);
//  - REST episode search, BENCH_EPISODE_FACTOR (4) times as many queries of its own, once each: it
//    answers about five times as fast, and a round of as many queries as the transcripts' was a few
//    hundred milliseconds right after a transcript round, whose garbage it mostly measured.
// `npm run bench -- corpus-search` (BENCH_QUERIES, 3,000 a round; BENCH_ROUNDS, 3; BENCH_SEED);
// prints the Markdown table for BENCHMARKS.md.
import type { ChildProcess } from "node:child_process"
import { readFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { makeParagraphIndex } from "../src/catalog/SearchOptions.js"
import { candidateLimit } from "../src/catalog/search/ParagraphRanking.js"
import { searchTerms } from "../src/catalog/search/SearchTerms.js"
import { corpusDirectory, corpusUnavailable } from "../test/support/Corpus.js"
import { drawCorpusQueries } from "./_servers/CorpusQueries.js"
import { cpuTime, measuredOf, median, pairedRatio } from "./_servers/Load.js"
import { ensureSnapshot, startCommand, startOurServer } from "./_servers/StartCommand.js"

if (corpusUnavailable !== undefined) {
  console.log(`Nothing to measure without ${corpusUnavailable}.`)
  process.exit(0)
}

const perRound = Number(process.env.BENCH_QUERIES ?? 3000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const seed = Number(process.env.BENCH_SEED ?? 29)
const episodeFactor = Number(process.env.BENCH_EPISODE_FACTOR ?? 4)
const warmUpQueries = 1000
// The same snapshot as catalog-rest's, so either bench reuses the other's build.
const snapshot = process.env.BENCH_SNAPSHOT ?? join(tmpdir(), "bench-snapshot-changelog-master")

const started = performance.now()
ensureSnapshot(snapshot, join(corpusDirectory, "feeds/changelog-master.xml"))
console.log(`snapshot ready in ${((performance.now() - started) / 1000).toFixed(1)} s`)

const readJson = <A>(path: string): A => JSON.parse(readFileSync(join(snapshot, path), "utf8")) as A
const manifest = readJson<{ indexes: { paragraphs: ReadonlyArray<readonly [string, string]> } }>(
  "manifest.json"
)
const drawn = drawCorpusQueries(snapshot, seed, warmUpQueries, rounds, perRound, perRound * episodeFactor)
const warmUp = drawn.warmUp
const roundQueries = drawn.rounds
const episodeQueries = drawn.laterRounds

// The engine: the snapshot's transcript index imported as the server imports it.
const index = makeParagraphIndex()
for (const [key, path] of manifest.indexes.paragraphs)
  index.import(key, readFileSync(join(snapshot, path), "utf8"))

interface Measured {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly cpuMicroseconds?: number | undefined
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

/** FlexSearch's `search` for each query in turn, as the service asks it. */
const engine = (queries: ReadonlyArray<string>): Measured & { readonly hits: number } => {
  const times: Array<number> = []
  let hits = 0
  const limit = candidateLimit(undefined)
  const begin = performance.now()
  for (const q of queries) {
    const t = performance.now()
    const found = index.search(searchTerms(q).join(" "), { limit })
    times.push(performance.now() - t)
    hits += found[0]?.result.length ?? 0
  }
  const total = performance.now() - begin
  times.sort((a, b) => a - b)
  return {
    requestsPerSecond: (queries.length / total) * 1000,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    hits
  }
}

const port = 18_601
const origin = `http://127.0.0.1:${port}`
const searchPath = (kind: "transcripts" | "episodes", q: string) =>
  kind === "transcripts"
    ? `/v1/transcripts/search?q=${encodeURIComponent(q)}`
    : `/v1/episodes?q=${encodeURIComponent(q)}`

/** Every query once, `connections` at a time: each request takes the next query of the list. */
const load = async (
  pid: number | undefined,
  kind: "transcripts" | "episodes",
  queries: ReadonlyArray<string>
): Promise<Measured> => {
  let next = 0
  // autocannon's own duration, with a fixed amount of requests, ends at the next tick of its
  // one-second sampling after the last answer (every round read 1.01 or 3.01 s): the rate is the
  // requests over the time from the start to the last answer, taken here.
  let lastAnswer = 0
  const cpuBefore = cpuTime(pid)
  const begin = performance.now()
  const result = await autocannon({
    url: origin,
    connections,
    amount: queries.length,
    // A query waits behind the 31 others: a slow server is measured, not cut off.
    timeout: 60,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          path: searchPath(kind, queries[next++ % queries.length] ?? "")
        }),
        onResponse: () => {
          lastAnswer = performance.now()
        }
      }
    ]
  })
  const cpuAfter = cpuTime(pid)
  if (result["2xx"] !== result.requests.total || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${kind}: ${result["2xx"]} answers 2xx of ${result.requests.total}, ${result.non2xx} others, ${result.errors} errors`
    )
  }
  if (next !== queries.length) throw new Error(`${kind}: ${next} requests sent for ${queries.length} queries`)
  return measuredOf(result, (result.requests.total / (lastAnswer - begin)) * 1000, cpuBefore, cpuAfter)
}

const servers: Array<ChildProcess> = []
const runs = {
  engine: [] as Array<Measured & { hits: number }>,
  transcripts: [] as Array<Measured>,
  episodes: [] as Array<Measured>
}
const loads: Array<string> = []
try {
  const server = await startOurServer(startCommand(), {
    PORT: String(port),
    CATALOG_DIR: snapshot,
    FOUNDATION_ENABLED: "false",
    CATALOG_RATE_LIMIT: "100000000"
  })
  servers.push(server)
  // Answers that find something: the run measures searches, not refusals or empty pages.
  const sample = await fetch(`${origin}${searchPath("transcripts", warmUp[0] as string)}`)
  const sampleBody = (await sample.json()) as { data: Array<unknown> }
  if (sample.status !== 200 || sampleBody.data.length === 0) throw new Error(`no hits for "${warmUp[0]}"`)
  // The warm-up: the transcript index imported, every transcript parsed, the code compiled.
  // FlexSearch is slow enough on these queries that a hundred warm it.
  engine(warmUp.slice(0, 100))
  await load(server.pid, "transcripts", warmUp)
  await load(server.pid, "episodes", warmUp)

  for (const [round, queries] of roundQueries.entries()) {
    loads.push(loadavg()[0]?.toFixed(2) ?? "")
    runs.engine.push(engine(queries))
    runs.transcripts.push(await load(server.pid, "transcripts", queries))
    runs.episodes.push(await load(server.pid, "episodes", episodeQueries[round] ?? []))
  }
} finally {
  for (const server of servers) server.kill()
}

const rate = (list: ReadonlyArray<Measured>) => Math.round(median(list.map((m) => m.requestsPerSecond)))
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0))
const row = (name: string, list: ReadonlyArray<Measured>, ratio: string) =>
  `| ${name} | ${list.map((m) => Math.round(m.requestsPerSecond).toLocaleString("en")).join(" / ")} (median ${rate(list).toLocaleString("en")}) | ${list.map((m) => ms(m.p50)).join(" / ")} | ${list.map((m) => ms(m.p99)).join(" / ")} | ${list.map((m) => (m.cpuMicroseconds === undefined ? "—" : Math.round(m.cpuMicroseconds).toLocaleString("en"))).join(" / ")} | ${ratio} |`
const ratios = runs.transcripts.map(
  (m, i) => m.requestsPerSecond / (runs.engine[i]?.requestsPerSecond ?? Number.NaN)
)
const hits = median(runs.engine.map((m) => m.hits / perRound))

console.log(`
### Uncached search on the corpus: ${rounds} rounds of ${perRound} distinct queries (episode search: ${perRound * episodeFactor}; ${drawn.termSets} term sets in the run, none twice), ${connections} connections

${new Date().toISOString().slice(0, 10)}, load average at each round's start ${loads.join(", ")}, \`BENCH_QUERIES=${perRound} BENCH_ROUNDS=${rounds} BENCH_EPISODE_FACTOR=${episodeFactor} npm run bench -- corpus-search\`. Queries: two or three words of a random paragraph (seed ${seed}); FlexSearch finds ${hits.toFixed(0)} candidates a query at the median (at most ${candidateLimit(undefined)}). Figures per round.

| search | req/s | p50 ms | p99 ms | server CPU µs a request | of FlexSearch's own \`search\` |
|---|---|---|---|---|---|
${row("FlexSearch 0.8 `search` on the same transcript index, one process, one query at a time", runs.engine, "1.00×")}
${row("REST transcript search `GET /v1/transcripts/search?q=…`", runs.transcripts, pairedRatio(ratios))}
${row("REST episode search `GET /v1/episodes?q=…`", runs.episodes, "—")}
`)

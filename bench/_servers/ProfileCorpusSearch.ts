// Where uncached search on the corpus spends its time, query by query: the corpus search bench's
// own queries (bench/corpus-search.ts, same seed and counts) through the service's search in this
// one process, without HTTP. The snapshot the bench built is loaded as the server loads it, warmed
// up, then the whole list is searched twice, each pass with a new Search (empty ranking caches):
// a query slow in one pass and fast in the other is slow for something other than its own work.
// For each query: the slot intersection alone, the search (intersection, term counting, BM25,
// paragraphs and snippets of the page), the page's encoding as REST encodes it, the same for
// episode search, and the collector's pauses during it. Prints percentiles, the pauses by kind and
// the 20 slowest of each search.
//   npx tsx bench/_servers/ProfileCorpusSearch.ts   (BENCH_QUERIES, BENCH_ROUNDS, BENCH_SEED, BENCH_SNAPSHOT as the bench)
import { tmpdir } from "node:os"
import { join } from "node:path"
import { constants, PerformanceObserver } from "node:perf_hooks"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { loadSnapshot } from "../../src/catalog/Catalog.js"
import { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import { makeSearch } from "../../src/catalog/Search.js"
import { paragraphSlots, tokenize } from "../../src/catalog/SearchOptions.js"
import { findEpisodes } from "../../src/catalog/search/EpisodeRanking.js"
import { candidateLimit } from "../../src/catalog/search/ParagraphRanking.js"
import { searchTerms } from "../../src/catalog/search/SearchTerms.js"
import { intersectSlots } from "../../src/catalog/search/SlotIntersection.js"
import { drawCorpusQueries } from "./CorpusQueries.js"

const snapshot = process.env.BENCH_SNAPSHOT ?? join(tmpdir(), "bench-snapshot-changelog-master")
const drawn = drawCorpusQueries(
  snapshot,
  Number(process.env.BENCH_SEED ?? 29),
  1000,
  Number(process.env.BENCH_ROUNDS ?? 3),
  Number(process.env.BENCH_QUERIES ?? 3000)
)
const queries = [...drawn.warmUp, ...drawn.rounds.flat()]

const loading = performance.now()
const catalog = await Effect.runPromise(loadSnapshot(snapshot, "http://127.0.0.1"))
await Effect.runPromise(catalog.warmUp)
console.log(`loaded and warmed up in ${((performance.now() - loading) / 1000).toFixed(1)} s`)

const pauses: Array<{ readonly start: number; readonly duration: number; readonly kind: number }> = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    pauses.push({
      start: entry.startTime,
      duration: entry.duration,
      kind: (entry as { readonly detail?: { readonly kind?: number } }).detail?.kind ?? 0
    })
}).observe({ entryTypes: ["gc"] })
const kindName: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "young generation",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "old generation",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental marking",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks"
}

const encodeTranscripts = Schema.encodeSync(TranscriptHitPage)
const encodeEpisodes = Schema.encodeSync(EpisodePage)
const slotsOf = paragraphSlots(catalog.indexes.paragraphs)

interface Timed {
  readonly q: string
  readonly start: number
  readonly end: number
  readonly intersection: number
  readonly candidates: number
  readonly transcripts: number
  readonly transcriptEncoding: number
  readonly episodeCandidates: number
  readonly episodes: number
  readonly episodeEncoding: number
}

const since = (start: number) => performance.now() - start

const pass = (): Array<Timed> => {
  const search = makeSearch(catalog, "profile")
  return queries.map((q) => {
    const start = performance.now()
    const terms = searchTerms(q)
    let t = performance.now()
    const found = intersectSlots(
      [...new Set(tokenize(terms.join(" ")))].map(slotsOf),
      candidateLimit(undefined)
    )
    const intersection = since(t)
    t = performance.now()
    const page = search.transcripts({ q, session: undefined, limit: 10, cursor: undefined })
    const transcripts = since(t)
    t = performance.now()
    if (Either.isRight(page))
      Buffer.from(
        JSON.stringify(encodeTranscripts(new TranscriptHitPage({ ...page.right, schemaVersion: "1" })))
      )
    const transcriptEncoding = since(t)
    const episodeCandidates = findEpisodes(catalog.indexes.episodes, terms, catalog.episodes.length).length
    t = performance.now()
    const episodePage = search.episodes({ q, session: undefined, limit: 10, cursor: undefined })
    const episodes = since(t)
    t = performance.now()
    if (Either.isRight(episodePage))
      Buffer.from(
        JSON.stringify(encodeEpisodes(new EpisodePage({ ...episodePage.right, schemaVersion: "1" })))
      )
    const episodeEncoding = since(t)
    return {
      q,
      start,
      end: performance.now(),
      intersection,
      candidates: found.length,
      transcripts,
      transcriptEncoding,
      episodeCandidates,
      episodes,
      episodeEncoding
    }
  })
}

const passes = [pass(), pass()] as const
// The observer reports after the pass: a tick lets the last pauses arrive.
await new Promise((resolve) => setTimeout(resolve, 100))

const pausedDuring = (timed: Timed) =>
  pauses
    .filter((pause) => pause.start < timed.end && pause.start + pause.duration > timed.start)
    .reduce((sum, pause) => sum + pause.duration, 0)
const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
const ms = (n: number) => n.toFixed(1)
const transcriptTime = (timed: Timed) => timed.transcripts + timed.transcriptEncoding
const episodeTime = (timed: Timed) => timed.episodes + timed.episodeEncoding

passes.forEach((timings, p) => {
  for (const [name, time] of [
    ["transcripts", transcriptTime],
    ["episodes", episodeTime]
  ] as const) {
    const sorted = timings.map(time).sort((a, b) => a - b)
    const mean = sorted.reduce((sum, n) => sum + n, 0) / sorted.length
    console.log(
      `pass ${p + 1}, ${name}: ${sorted.length} queries, p50 ${percentile(sorted, 50).toFixed(2)} p90 ${percentile(sorted, 90).toFixed(2)} p99 ${percentile(sorted, 99).toFixed(2)} max ${ms(sorted.at(-1) ?? 0)} mean ${mean.toFixed(2)} ms`
    )
  }
})
const byKind = new Map<string, { count: number; total: number; longest: number }>()
for (const pause of pauses) {
  const name = kindName[pause.kind] ?? String(pause.kind)
  const kind = byKind.get(name) ?? { count: 0, total: 0, longest: 0 }
  byKind.set(name, {
    count: kind.count + 1,
    total: kind.total + pause.duration,
    longest: Math.max(kind.longest, pause.duration)
  })
}
for (const [name, kind] of byKind)
  console.log(
    `collector, ${name}: ${kind.count} pauses, ${ms(kind.total)} ms in all, the longest ${ms(kind.longest)} ms`
  )

const slowest = (p: 0 | 1, name: string, time: (timed: Timed) => number) => {
  const timings = passes[p]
  const other = passes[p === 0 ? 1 : 0]
  console.log(`\nslowest ${name}, pass ${p + 1} (ms; "other pass": the same query's time in the other pass)`)
  const ranked = timings.map((timed, i) => ({ timed, i })).sort((a, b) => time(b.timed) - time(a.timed))
  for (const { timed, i } of ranked.slice(0, 20)) {
    const parts =
      name === "transcripts"
        ? `search ${ms(timed.transcripts)} (slot intersection ${ms(timed.intersection)}, ${timed.candidates} candidates), encoding ${ms(timed.transcriptEncoding)}`
        : `search ${ms(timed.episodes)} (${timed.episodeCandidates} candidates), encoding ${ms(timed.episodeEncoding)}`
    console.log(
      `  #${i} "${timed.q}" [${searchTerms(timed.q).join(" ")}] ${ms(time(timed))}: ${parts}; collector ${ms(pausedDuring(timed))}; other pass ${ms(time(other[i] as Timed))}`
    )
  }
}
for (const p of [0, 1] as const) {
  slowest(p, "transcripts", transcriptTime)
  slowest(p, "episodes", episodeTime)
}

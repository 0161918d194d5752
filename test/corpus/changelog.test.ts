// Real data end to end: the Changelog corpus in ../shared (CC BY-SA 4.0), read in place, builds
// with every episode and transcript it counts, and the server started on that snapshot answers
// every route, and the snapshot reader answers as that server does, reading a small part of the
// static search files per query. Skipped when the corpus is not there (the skip report says so:
// Corpus.ts). The corpus is built here, once, and kept for the next run while its inputs are
// unchanged (CorpusSnapshot.ts): its build is the expensive part.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { openSnapshot } from "@podcast-platform/snapshot-reader"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { BuildSummary } from "../../build/BuildCatalog.js"
import { loadSnapshot } from "../../src/catalog/Catalog.js"
import { maxSearchResults } from "../../src/catalog/CatalogLimits.js"
import { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import { pageJson } from "../../src/catalog/http/PageJson.js"
import { makeSearch } from "../../src/catalog/Search.js"
import { tokenize } from "../../src/catalog/SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "../../src/catalog/search/Bm25.js"
import { mergedIds } from "../../src/catalog/search/Candidates.js"
import { makeParagraphLocator } from "../../src/catalog/search/ParagraphLocator.js"
import { candidateLimit } from "../../src/catalog/search/ParagraphRanking.js"
import { searchTerms } from "../../src/catalog/search/SearchTerms.js"
import { catalogServerOn, FixtureSnapshot } from "../support/CatalogTestServer.js"
import { corpusDirectory, corpusUnavailable } from "../support/Corpus.js"
import { corpusSnapshot } from "../support/CorpusSnapshot.js"
import { describeNeeding } from "../support/Needs.js"
import { compareWithService, queriesFrom } from "../support/ReaderDifferential.js"
import { request } from "../support/TestServer.js"

const corpus = corpusDirectory
const origin = "https://catalog.example"

interface FeedStats {
  readonly items: number
  readonly items_with_transcript: number
}

class CorpusBuild extends Context.Tag("CorpusBuild")<CorpusBuild, BuildSummary>() {}

/** The corpus' snapshot (built, or kept from an earlier run: CorpusSnapshot.ts), then served. */
const corpusServer = Layer.unwrapEffect(
  Effect.map(corpusSnapshot, ({ out, summary }) =>
    Layer.merge(catalogServerOn(out, { CATALOG_RATE_LIMIT: "100000" }), Layer.succeed(CorpusBuild, summary))
  )
)

describeNeeding(corpusUnavailable)("the Changelog corpus", () => {
  it.layer(corpusServer, { timeout: 240_000 })((it) => {
    it.effect("changelog-master.xml builds with every episode and transcript the corpus counts", () =>
      Effect.gen(function* () {
        const summary = yield* CorpusBuild
        const snapshot = yield* FixtureSnapshot
        const stats = JSON.parse(readFileSync(join(corpus, "stats.json"), "utf8")).feeds as Record<
          string,
          FeedStats
        >
        const master = stats["changelog-master.xml"] as FeedStats
        expect(summary.episodes).toBe(master.items)
        expect(summary.transcripts).toBe(master.items_with_transcript)
        expect(summary.episodes).toBe(1311)
        expect(summary.transcripts).toBe(1187)
        expect(summary.words).toBeGreaterThan(10_000_000)

        // Seasons are the shows in alphabetical order (the corpus README): each has its feed's counts.
        const episodes = JSON.parse(
          snapshot.file(JSON.parse(snapshot.file("manifest.json").toString()).collections.episodes).toString()
        ).data as Array<{ session: number; transcriptAvailable: boolean }>
        const shows = Object.keys(stats)
          .filter((name) => name !== "changelog-master.xml")
          .sort()
        shows.forEach((show, index) => {
          const inSession = episodes.filter((episode) => episode.session === index + 1)
          expect(inSession.length, show).toBe(stats[show]?.items)
          expect(inSession.filter((episode) => episode.transcriptAvailable).length, show).toBe(
            stats[show]?.items_with_transcript
          )
        })
        expect(Object.keys(snapshot.manifest.episodes)).toHaveLength(1311)
      })
    )

    it.effect("the server on that snapshot answers every route", () =>
      Effect.gen(function* () {
        const snapshot = yield* FixtureSnapshot
        const slug = Object.keys(snapshot.manifest.transcripts)[0] as string
        expect((yield* request("/health")).json).toMatchObject({
          status: "ok",
          snapshot: { episodes: 1311, transcripts: 1187 }
        })
        const newest = (yield* request("/v1/episodes?limit=50")).json as typeof EpisodePage.Encoded
        expect(newest.data).toHaveLength(50)
        expect(newest.nextCursor).not.toBeNull()
        const ranked = (yield* request("/v1/episodes?q=kubernetes&limit=5"))
          .json as typeof EpisodePage.Encoded
        expect(ranked.data[0]?.title.toLowerCase()).toContain("kubernetes")
        const hits = (yield* request(
          "/v1/transcripts/search?q=open%20source%20maintainers&session=5&limit=5"
        )).json as typeof TranscriptHitPage.Encoded
        expect(hits.data.length).toBeGreaterThan(0)
        expect(hits.data.every((hit) => hit.session === 5)).toBe(true)
        expect((yield* request(`/v1/episodes/${slug}`)).status).toBe(200)
        expect((yield* request(`/v1/transcripts/${slug}`)).status).toBe(200)
        expect((yield* request("/v1/snapshot")).status).toBe(200)
        expect((yield* request(`/snapshot/${snapshot.manifest.index[0]}`)).status).toBe(200)
        const batch = yield* request("/v1/batch", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ requests: [{ id: "a", path: `/v1/episodes/${slug}` }] })
        })
        expect(batch.json).toMatchObject({ responses: [{ id: "a", status: 200 }] })
        expect((yield* request("/sandbox")).status).toBe(200)
        expect((yield* request("/openapi.json")).status).toBe(200)
      })
    )

    it.effect(
      "the snapshot reader answers as the server does, reading a small part of the search files",
      () =>
        Effect.gen(function* () {
          const snapshot = yield* FixtureSnapshot
          const read = (path: string) => JSON.parse(snapshot.file(path).toString("utf8"))
          const manifest = read("manifest.json")
          const episodes = read(manifest.collections.episodes).data as Array<{
            title: string
            session: number
          }>
          // Words from every 40th transcript: enough for varied queries, cheap to read.
          const paragraphs = Object.values(manifest.transcripts as Record<string, string>)
            .filter((_, i) => i % 40 === 0)
            .flatMap((path) => (read(path).data.paragraphs as Array<{ text: string }>).map((p) => p.text))
          const sessions = [...new Set(episodes.map((episode) => episode.session))]
          const queries = [
            ...queriesFrom(
              paragraphs,
              episodes.map((episode) => episode.title),
              sessions,
              3
            ),
            // Frequent words: a whole list with lengths, one without (read with another term's), and
            // only words whose lists leave lengths out (read from the length blocks).
            { q: "open source maintainers" },
            { q: "the kubernetes" },
            { q: "the and" },
            // Only such words, read from their heads (their first slots); with a session filter,
            // whose candidates the heads do not fill, from their whole lists.
            { q: "you know the" },
            { q: "the and", session: 5 },
            { q: "rust", session: 5 }
          ]
          const reader = yield* Effect.promise(() => openSnapshot(snapshot.directory, { apiOrigin: origin }))
          const compared = yield* compareWithService(reader, queries, 10, 2)
          expect(compared).toBeGreaterThan(50)

          // What a query reads, each from a reader of its own: the first load (search.json and the
          // descriptions) apart. Each stays within the static page's budget (300 KB), the pair of stop words too.
          const cost = (q: string) =>
            Effect.promise(async () => {
              const fresh = await openSnapshot(snapshot.directory)
              await fresh.preload()
              const first = fresh.transferred()
              await fresh.searchEpisodes({ q })
              await fresh.searchTranscripts({ q })
              const after = fresh.transferred()
              return {
                q,
                first: first.bytes,
                query: after.bytes - first.bytes,
                files: after.files - first.files
              }
            })
          const costs = yield* Effect.forEach(
            ["rust", "kubernetes maintainers", "glacier", "open source", "the", "the and"],
            cost
          )
          console.info(
            `snapshot reader on the corpus: ${queries.length} queries, ${compared} pages compared; bytes read per query (episodes and transcripts, first page): ${JSON.stringify(costs)}`
          )
          for (const { q, first, query } of costs) {
            expect(first, q).toBeLessThan(100_000)
            expect(query, q).toBeLessThan(300_000)
          }
        })
    )
  })

  // After the server's group has stopped it, so that the two catalogs of the corpus are never in
  // memory at once (side by side they took the file from 93 to 147 s in CI).
  describe("transcript search against the path it replaced", () => {
    it.effect(
      "transcript search ranks what FlexSearch's own search finds, counting terms in the texts, as it did",
      () =>
        Effect.gen(function* () {
          // The path transcript search replaced, kept here as the reference: FlexSearch's `search`
          // for the candidates, each query term counted in the tokenised text.
          const catalog = yield* loadSnapshot((yield* corpusSnapshot).out, origin)
          const search = makeSearch(catalog, "differential")
          const { statistics } = catalog.searchData
          const locate = makeParagraphLocator(catalog.searchData)
          const sessionOf = new Map(catalog.episodes.map((episode) => [episode.slug, episode.session]))
          const textOf = (slug: string, paragraphIndex: number) =>
            catalog.transcriptRecord(slug)?.paragraphs[paragraphIndex]?.text
          const reference = (terms: ReadonlyArray<string>, session: number | undefined) => {
            // BM25 over the candidates in FlexSearch's order, the first maxSearchResults of the
            // session, sorted as objects by a stable comparator sort (the ranking before it was
            // kept as numbers).
            const idf = terms.map((term) =>
              inverseFrequency(statistics.paragraphs, statistics.documentFrequency[term] ?? 1)
            )
            const ranked: Array<{ slug: string; paragraphIndex: number; relevance: number }> = []
            const found = mergedIds(
              catalog.indexes.paragraphs.search(terms.join(" "), { limit: candidateLimit(session) })
            )
            for (const id of found as ReadonlyArray<number>) {
              const location = locate(id)
              if (location === undefined) continue
              if (session !== undefined && sessionOf.get(location.slug) !== session) continue
              const text = textOf(location.slug, location.paragraphIndex)
              if (text === undefined) continue
              const words = tokenize(text)
              const length = statistics.paragraphTerms[id] ?? statistics.averageTerms
              let relevance = 0
              terms.forEach((term, t) => {
                const tf = words.filter((word) => word === term).length
                if (tf > 0) relevance += bm25(tf, length, statistics.averageTerms, idf[t] as number)
              })
              ranked.push({ ...location, relevance: roundRelevance(relevance) })
              if (ranked.length >= maxSearchResults) break
            }
            return ranked.sort((a, b) => b.relevance - a.relevance)
          }
          // Two and three words of random paragraphs, frequent words as often as they are spoken,
          // and sessions: from every 3,880th paragraph of the corpus, words picked by their position
          // (FlexSearch takes up to a tenth of a second for a query with a frequent word).
          const texts = catalog.searchData.transcripts.flatMap(([slug, count]) =>
            Array.from({ length: count }, (_, i) => textOf(slug, i) ?? "")
          )
          const queries = texts
            .filter((_, id) => id % 97 === 0)
            .map((text, i) => {
              const words = tokenize(text)
              const pickWord = (k: number) => words[(i * 7 + k * 13) % Math.max(words.length, 1)] ?? "the"
              return {
                q: [pickWord(0), pickWord(1), ...(i % 2 === 0 ? [pickWord(2)] : [])].join(" "),
                session: i % 5 === 0 ? (i % 9) + 1 : undefined
              }
            })
            .filter((_, i) => i % 40 === 0)
          let compared = 0
          for (const { q, session } of queries) {
            const terms = searchTerms(q)
            if (terms.length === 0) continue
            const expected = reference(terms, session)
            const page = search.transcripts({ q, session, limit: 50, cursor: undefined })
            if (page._tag !== "Right") throw new Error(`${q}: ${page.left.message}`)
            expect(
              page.right.data.map((hit) => [hit.slug, hit.paragraphIndex, hit.relevance]),
              `${q} ${session ?? ""}`
            ).toEqual(expected.slice(0, 50).map((hit) => [hit.slug, hit.paragraphIndex, hit.relevance]))
            expect(page.right.nextCursor === null, q).toBe(expected.length <= 50)
            // REST writes the pages as JSON.stringify of their classes (PageJson.ts): the same JSON
            // as the schema's encoding on the corpus' records too.
            const hits = new TranscriptHitPage({ ...page.right, schemaVersion: "1" }, true)
            expect(pageJson(hits), q).toBe(JSON.stringify(Schema.encodeSync(TranscriptHitPage)(hits)))
            const episodePage = search.episodes({ q, session, limit: 50, cursor: undefined })
            if (episodePage._tag !== "Right") throw new Error(`${q}: ${episodePage.left.message}`)
            const episodes = new EpisodePage({ ...episodePage.right, schemaVersion: "1" }, true)
            expect(pageJson(episodes), q).toBe(JSON.stringify(Schema.encodeSync(EpisodePage)(episodes)))
            compared++
          }
          console.info(`transcript search against its reference on the corpus: ${compared} queries`)
          expect(compared).toBeGreaterThan(50)
        }),
      240_000
    )
  })
})

// Real data end to end: the Changelog corpus in ../shared (CC BY-SA 4.0), read in place, builds
// with every episode and transcript it counts, and the server started on that snapshot answers
// every route, and the snapshot reader answers as that server does, reading a small part of the
// static search files per query. Skipped when the corpus is not there (the skip report says so:
// Corpus.ts). The corpus is built once, here: its build is the expensive part.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { openSnapshot } from "@podcast-platform/snapshot-reader"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type BuildSummary, buildCatalog } from "../../build/BuildCatalog.js"
import type { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import { catalogServerOn, FixtureSnapshot } from "../support/CatalogTestServer.js"
import { corpusDirectory, corpusUnavailable } from "../support/Corpus.js"
import { describeNeeding } from "../support/Needs.js"
import { compareWithService, queriesFrom } from "../support/ReaderDifferential.js"
import { tempDir } from "../support/TempDir.js"
import { request } from "../support/TestServer.js"

const corpus = corpusDirectory
const origin = "https://catalog.example"

interface FeedStats {
  readonly items: number
  readonly items_with_transcript: number
}

class CorpusBuild extends Context.Tag("CorpusBuild")<CorpusBuild, BuildSummary>() {}

/** Builds changelog-master.xml once for the file, then serves it. */
const corpusServer = Layer.unwrapEffect(
  Effect.gen(function* () {
    const out = join(tempDir("corpus-"), "snapshot")
    const summary = yield* buildCatalog({
      feed: join(corpus, "feeds/changelog-master.xml"),
      docs: undefined,
      out,
      sourceDateEpoch: undefined,
      progress: () => {}
    })
    return Layer.merge(
      catalogServerOn(out, { CATALOG_RATE_LIMIT: "100000" }),
      Layer.succeed(CorpusBuild, summary)
    )
  })
).pipe(Layer.orDie)

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
            { q: "rust", session: 5 }
          ]
          const reader = yield* Effect.promise(() => openSnapshot(snapshot.directory, { apiOrigin: origin }))
          const compared = yield* compareWithService(reader, queries, 10, 2)
          expect(compared).toBeGreaterThan(50)

          // What a query reads, each from a reader of its own: the first load (search.json and the
          // descriptions) apart. Rare words stay well within the static page's budget (300 KB).
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
            ["rust", "kubernetes maintainers", "glacier", "open source", "the"],
            cost
          )
          console.info(
            `snapshot reader on the corpus: ${queries.length} queries, ${compared} pages compared; bytes read per query (episodes and transcripts, first page): ${JSON.stringify(costs)}`
          )
          for (const { q, first, query } of costs.slice(0, 3)) {
            expect(first, q).toBeLessThan(100_000)
            expect(query, q).toBeLessThan(300_000)
          }
        })
    )
  })
})

// Real data end to end: the Changelog corpus in ../shared (CC BY-SA 4.0), read in place, builds
// with every episode and transcript it counts, and the server started on that snapshot answers
// every route. Skipped when the corpus is not there (the skip report says so: Corpus.ts).
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type BuildSummary, buildCatalog } from "../../build/BuildCatalog.js"
import type { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import { catalogServerOn, FixtureSnapshot } from "../support/CatalogTestServer.js"
import { corpusDirectory, corpusUnavailable } from "../support/Corpus.js"
import { describeNeeding } from "../support/Needs.js"
import { tempDir } from "../support/TempDir.js"
import { request } from "../support/TestServer.js"

const corpus = corpusDirectory

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
  })
})

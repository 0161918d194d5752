// REST writes transcript pages as JSON.stringify of their Schema classes (PageJson.ts) and episode
// pages from each episode's JSON prepared once (EpisodePageBytes.ts), instead of encoding them
// through the schema first: over the demo snapshot, every page of the episode list (whole and by
// session), of episode searches for every word of the show's titles and descriptions, and of
// transcript searches for words and pairs of words from every transcript, with and without a
// session, is the same JSON every way, byte for byte.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { loadSnapshot } from "../../src/catalog/Catalog.js"
import { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import { makeEpisodePageBytes } from "../../src/catalog/http/EpisodePageBytes.js"
import { pageJson } from "../../src/catalog/http/PageJson.js"
import { makeSearch } from "../../src/catalog/Search.js"
import { tokenize } from "../../src/catalog/SearchOptions.js"
import type { RankedEpisode } from "../../src/catalog/search/EpisodeRanking.js"
import { renderEpisode } from "../../src/catalog/search/EpisodeSearch.js"
import type { Page } from "../../src/catalog/search/Paginate.js"
import { buildContentSnapshot, contentOrigin } from "../support/ContentTestServer.js"

const encodeEpisodes = Schema.encodeSync(EpisodePage)
const encodeHits = Schema.encodeSync(TranscriptHitPage)

describe("page JSON", () => {
  it.effect(
    "is the schema encoding's JSON for every list and search page of the demo snapshot",
    () =>
      Effect.gen(function* () {
        const catalog = yield* loadSnapshot(yield* buildContentSnapshot, contentOrigin)
        const search = makeSearch(catalog, "page-json")
        const sessions = [undefined, ...new Set(catalog.episodes.map((episode) => episode.session))]
        let pages = 0
        let items = 0

        /** Every page of a search, following its cursors, each compared both ways. */
        const everyPage = <A>(
          ask: (cursor: string | undefined) => Either.Either<Page<A>, unknown>,
          compare: (page: Page<A>) => void
        ) => {
          let cursor: string | undefined
          do {
            const page = ask(cursor)
            if (Either.isLeft(page)) return
            compare(page.right)
            pages++
            items += page.right.data.length
            cursor = page.right.nextCursor ?? undefined
          } while (cursor !== undefined)
        }
        const render = renderEpisode(catalog.episodes)
        const episodeBytes = makeEpisodePageBytes(catalog.episodes, render)
        const compareEpisodes = (ranked: Page<RankedEpisode>) => {
          const classed = new EpisodePage(
            { ...ranked, data: ranked.data.map(render), schemaVersion: "1" },
            true
          )
          const encoded = JSON.stringify(encodeEpisodes(classed))
          expect(pageJson(classed)).toBe(encoded)
          expect(episodeBytes(ranked).toString("utf8")).toBe(encoded)
        }
        const compareHits = (page: Page<TranscriptHitPage["data"][number]>) => {
          const classed = new TranscriptHitPage({ ...page, schemaVersion: "1" }, true)
          expect(pageJson(classed)).toBe(JSON.stringify(encodeHits(classed)))
        }

        const episodeWords = new Set(
          catalog.episodes.flatMap((episode) => tokenize(`${episode.title} ${episode.description}`))
        )
        for (const session of sessions) {
          everyPage(
            (cursor) => search.rankedEpisodes({ q: undefined, session, limit: 5, cursor }),
            compareEpisodes
          )
          for (const word of episodeWords)
            everyPage(
              (cursor) => search.rankedEpisodes({ q: word, session, limit: 5, cursor }),
              compareEpisodes
            )
          // What the other surfaces read: the same pages as records.
          for (const q of [undefined, ...[...episodeWords].slice(0, 20)]) {
            const asked = { q, session, limit: 5, cursor: undefined }
            const ranked = search.rankedEpisodes(asked)
            expect(search.episodes(asked)).toEqual(
              Either.map(ranked, (page) => ({ ...page, data: page.data.map(render) }))
            )
          }
        }
        const transcriptWords = catalog.episodes.flatMap((episode) =>
          (catalog.transcriptRecord(episode.slug)?.paragraphs ?? []).flatMap((paragraph, i) =>
            i % 3 === 0 ? [tokenize(paragraph.text).slice(0, 2)] : []
          )
        )
        for (const [i, words] of transcriptWords.entries()) {
          const session = sessions[i % sessions.length]
          for (const q of [words[0] ?? "", words.join(" ")])
            everyPage((cursor) => search.transcripts({ q, session, limit: 10, cursor }), compareHits)
        }
        // Enough of both kinds that the comparison is not a handful of pages.
        expect(pages).toBeGreaterThan(500)
        expect(items).toBeGreaterThan(2000)
      }),
    120_000
  )
})

// `links.audioAt` of transcript hits over the demo podcast, whose Markdown transcripts time only some
// paragraphs: the audio with `#t=<startSeconds>` exactly when the hit has a start time, the bare
// audio URL when it has none (catalog-extensions §2).
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import type { EpisodeDetail } from "../../src/catalog/domain/Episode.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request } from "../support/TestServer.js"

type Hits = typeof TranscriptHitPage.Encoded
type Detail = typeof EpisodeDetail.Encoded

const queries = ["sound", "chart", "glacier", "survey", "map", "water", "tide"]

describe("audioAt of transcript hits", () => {
  it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "100000" }))((it) => {
    it.effect("is the audio at startSeconds, or the audio alone when the paragraph has no time", () =>
      Effect.gen(function* () {
        const audio = new Map<string, string>()
        let timed = 0
        let untimed = 0
        for (const q of queries) {
          const hits = (yield* request(`/v1/transcripts/search?q=${q}&limit=50`)).json as Hits
          for (const hit of hits.data) {
            if (!audio.has(hit.slug)) {
              const detail = (yield* request(`/v1/episodes/${hit.slug}`)).json as Detail
              audio.set(hit.slug, detail.data.audio.url)
            }
            const url = audio.get(hit.slug)
            if (hit.startSeconds === null) {
              untimed++
              expect(hit.links.audioAt, `${q}: ${hit.slug} ¶${hit.paragraphIndex}`).toBe(url)
            } else {
              timed++
              expect(hit.links.audioAt, `${q}: ${hit.slug} ¶${hit.paragraphIndex}`).toBe(
                `${url}#t=${hit.startSeconds}`
              )
            }
          }
        }
        // Both kinds occur, so neither rule is checked vacuously.
        expect(timed).toBeGreaterThan(20)
        expect(untimed).toBeGreaterThan(20)
      })
    )
  })
})

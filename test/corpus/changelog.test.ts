// The build handles real data: the Changelog corpus in ../shared (CC BY-SA 4.0), read in place.
// Skipped when the corpus is not there.
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { buildCatalog } from "../../build/BuildCatalog.js"

const corpus = resolve(import.meta.dirname, "../../../shared/corpus/changelog")
const present = existsSync(join(corpus, "stats.json"))

interface FeedStats {
  readonly items: number
  readonly items_with_transcript: number
}

describe.skipIf(!present)("the Changelog corpus", () => {
  it.effect(
    "changelog-master.xml builds with every episode and transcript the corpus counts",
    () =>
      Effect.gen(function* () {
        const stats = JSON.parse(readFileSync(join(corpus, "stats.json"), "utf8")).feeds as Record<
          string,
          FeedStats
        >
        const out = join(mkdtempSync(join(tmpdir(), "corpus-")), "snapshot")
        const summary = yield* buildCatalog({
          feed: join(corpus, "feeds/changelog-master.xml"),
          docs: undefined,
          out,
          baseUrl: "http://127.0.0.1:8080",
          sourceDateEpoch: undefined,
          progress: () => {}
        })
        const master = stats["changelog-master.xml"] as FeedStats
        expect(summary.episodes).toBe(master.items)
        expect(summary.transcripts).toBe(master.items_with_transcript)
        expect(summary.episodes).toBe(1311)
        expect(summary.transcripts).toBe(1187)

        // Seasons are the shows in alphabetical order (the corpus README): each has its feed's counts.
        const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"))
        const episodes = JSON.parse(readFileSync(join(out, manifest.collections.episodes), "utf8"))
          .data as Array<{
          session: number
          transcriptAvailable: boolean
        }>
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
        expect(new Set(Object.keys(manifest.episodes)).size).toBe(1311)
        // Every transcript has text, and most paragraphs carry a speaker.
        expect(summary.words).toBeGreaterThan(10_000_000)
      }),
    180_000
  )
})

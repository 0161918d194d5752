// The snapshot reader (packages/snapshot-reader) answers as the service does: over the demo built
// with its frequent terms split as on a large catalog (so the shards' first postings, the whole
// lists, and the lengths left out of them are all read), dozens of queries made from the demo's own
// words are asked of the reader and of the real server's REST API, page after page, and the answers
// are the same. The corpus part is in test/corpus/changelog.test.ts, over the build it makes anyway.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { openSnapshot, SnapshotReaderError } from "@podcast-platform/snapshot-reader"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { bundleReader } from "../../packages/snapshot-reader/bundle.js"
import { buildContentSnapshotWith, contentOrigin, splitFrequentTerms } from "../support/ContentTestServer.js"
import { compareWithService, queriesFrom } from "../support/ReaderDifferential.js"
import { staticHost } from "../support/StaticHost.js"
import { tempDir } from "../support/TempDir.js"
import { request, testServer } from "../support/TestServer.js"

class DemoSnapshot extends Context.Tag("DemoSnapshot")<DemoSnapshot, string>() {}

const demo = Layer.unwrapEffect(
  Effect.map(buildContentSnapshotWith({ staticSearch: splitFrequentTerms }), (directory) =>
    Layer.merge(
      testServer({
        FOUNDATION_ENABLED: "false",
        CATALOG_DIR: directory,
        PUBLIC_ORIGIN: contentOrigin,
        CATALOG_RATE_LIMIT: "100000"
      }),
      Layer.succeed(DemoSnapshot, directory)
    )
  )
).pipe(Layer.orDie)

/** The demo's transcript paragraphs, episode titles and sessions, read from the snapshot's files. */
const vocabulary = (directory: string) => {
  const read = (path: string) => JSON.parse(readFileSync(join(directory, path), "utf8"))
  const manifest = read("manifest.json")
  const episodes = read(manifest.collections.episodes).data as Array<{ title: string; session: number }>
  const paragraphs = Object.values(manifest.transcripts as Record<string, string>).flatMap((path) =>
    (read(path).data.paragraphs as Array<{ text: string }>).map((paragraph) => paragraph.text)
  )
  return {
    paragraphs,
    titles: episodes.map((episode) => episode.title),
    sessions: [...new Set(episodes.map((episode) => episode.session))]
  }
}

describe("the snapshot reader", () => {
  it.layer(demo, { timeout: 120_000 })((it) => {
    it.effect("answers dozens of queries from the demo's words as the service does, page after page", () =>
      Effect.gen(function* () {
        const directory = yield* DemoSnapshot
        const { paragraphs, titles, sessions } = vocabulary(directory)
        const queries = queriesFrom(paragraphs, titles, sessions, 10)
        const reader = yield* Effect.promise(() => openSnapshot(directory, { apiOrigin: contentOrigin }))
        const compared = yield* compareWithService(reader, queries, 4, 3)
        expect(queries.length).toBe(75)
        expect(compared).toBeGreaterThan(150)
      })
    )

    it.effect("reads what a query needs: a rare word reads one shard and the text blocks of its hits", () =>
      Effect.gen(function* () {
        const directory = yield* DemoSnapshot
        const reader = yield* Effect.promise(() => openSnapshot(directory))
        const opened = reader.transferred()
        expect(opened.files).toBe(1)
        const hits = yield* Effect.promise(() => reader.searchTranscripts({ q: "glaciers", limit: 3 }))
        expect(hits.data.length).toBe(3)
        // Without an origin, links stay relative to the snapshot's root, as in its files.
        expect(hits.data[0]?.links.episode).toMatch(/^v1\/episodes\//)
        const read = reader.transferred()
        // The description, the term's shard and its whole list (the demo's split keeps 40 postings),
        // and the hits' text blocks: no other file.
        expect(read.files - opened.files).toBeLessThanOrEqual(3 + hits.data.length)
        // Asked again, nothing more is read.
        yield* Effect.promise(() => reader.searchTranscripts({ q: "glaciers", limit: 3 }))
        expect(reader.transferred()).toEqual(read)
      })
    )

    it.scoped("its browser build, one ES module with no imports, reads the snapshot from a static host", () =>
      Effect.gen(function* () {
        const directory = yield* DemoSnapshot
        const bundle = join(tempDir("reader-bundle-"), "browser.js")
        yield* Effect.promise(() => bundleReader(bundle, "browser"))
        const code = readFileSync(bundle, "utf8")
        // Nothing a browser without an import map could not load: only the folder source's node: modules.
        expect(
          [...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)/g)]
            .map((match) => match[1] ?? match[2])
            .sort()
        ).toEqual(["node:fs/promises", "node:path"])
        const host = yield* staticHost(directory)
        const browser = (yield* Effect.promise(
          () => import(pathToFileURL(bundle).href)
        )) as typeof import("@podcast-platform/snapshot-reader")
        const overHttp = yield* Effect.promise(() =>
          browser.openSnapshot(host.url, { apiOrigin: contentOrigin })
        )
        const fromFolder = yield* Effect.promise(() => openSnapshot(directory, { apiOrigin: contentOrigin }))
        for (const q of ["glaciers", "the river", "contour lines", "map"]) {
          const [a, b] = yield* Effect.promise(() =>
            Promise.all([overHttp.searchTranscripts({ q }), fromFolder.searchTranscripts({ q })])
          )
          expect(a, q).toEqual(b)
          const [c, d] = yield* Effect.promise(() =>
            Promise.all([overHttp.searchEpisodes({ q }), fromFolder.searchEpisodes({ q })])
          )
          expect(c, q).toEqual(d)
        }
        expect(overHttp.transferred()).toEqual(fromFolder.transferred())
      })
    )

    it.effect(
      "reads an episode by its slug as the service answers its detail, and none for a slug it lacks",
      () =>
        Effect.gen(function* () {
          const directory = yield* DemoSnapshot
          const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as {
            episodes: Record<string, string>
          }
          const slugs = Object.keys(manifest.episodes)
          expect(slugs.length).toBeGreaterThan(40)
          const reader = yield* Effect.promise(() => openSnapshot(directory, { apiOrigin: contentOrigin }))
          for (const slug of slugs) {
            const answer = yield* request(`/v1/episodes/${slug}`)
            expect(answer.status).toBe(200)
            const read = yield* Effect.promise(() => reader.episode(slug))
            expect(read, slug).toEqual((answer.json as { data: unknown }).data)
          }
          for (const slug of ["999999", "4x", ""]) {
            expect(yield* Effect.promise(() => reader.episode(slug)), slug).toBeUndefined()
          }
        })
    )

    it.effect("refuses a query with no word, and a folder that is not a snapshot, saying why", () =>
      Effect.gen(function* () {
        const directory = yield* DemoSnapshot
        const reader = yield* Effect.promise(() => openSnapshot(directory))
        const refused = yield* Effect.promise(() =>
          reader.searchTranscripts({ q: "!" }).then(
            () => undefined,
            (error: unknown) => error
          )
        )
        expect(refused).toBeInstanceOf(SnapshotReaderError)
        expect((refused as Error).message).toBe(
          "q must hold at least one word of two or more letters or digits"
        )
        const missing = yield* Effect.promise(() =>
          openSnapshot(join(directory, "episodes")).then(
            () => undefined,
            (error: unknown) => error
          )
        )
        expect((missing as Error).message).toContain("has no readable search.json")
      })
    )
  })
})

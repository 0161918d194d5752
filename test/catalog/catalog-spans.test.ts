// Start-up work of the catalog shows in a trace: loading the snapshot is one `Catalog.load` span
// with a child span per step, and making the searches is a `Search.make` span.
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { Catalog, loadSnapshot } from "../../src/catalog/Catalog.js"
import { CatalogConfig } from "../../src/catalog/CatalogConfig.js"
import { Search, SearchLive } from "../../src/catalog/Search.js"
import { buildFixtureSnapshot, fixtureOrigin } from "../support/CatalogTestServer.js"

interface RecordedSpan {
  readonly name: string
  readonly parent: string | undefined
}

/** Runs `effect` with a tracer that records each span's name and its parent's, as a tracing backend would. */
const traced = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.tracerWith((base) => {
    const spans: Array<RecordedSpan> = []
    const recording = Tracer.make({
      span: (name, parent, ...rest) => {
        spans.push({
          name,
          parent: Option.getOrUndefined(
            Option.map(parent, (span) => (span._tag === "Span" ? span.name : span.spanId))
          )
        })
        return base.span(name, parent, ...rest)
      },
      context: (f, fiber) => base.context(f, fiber)
    })
    return Effect.map(Effect.withTracer(effect, recording), (result) => ({ result, spans }))
  })

describe("the catalog in a trace", () => {
  it.effect("loading a snapshot is a Catalog.load span with a span for each step", () =>
    Effect.gen(function* () {
      const directory = yield* buildFixtureSnapshot()
      const { result: catalog, spans } = yield* traced(loadSnapshot(directory, fixtureOrigin))
      expect(catalog.episodes.length).toBeGreaterThan(0)
      expect(spans).toEqual([
        { name: "Catalog.load", parent: undefined },
        { name: "Catalog.readManifest", parent: "Catalog.load" },
        { name: "Catalog.verifyFiles", parent: "Catalog.load" },
        { name: "Catalog.prepareResponses", parent: "Catalog.load" },
        { name: "Catalog.decodeCollections", parent: "Catalog.load" },
        { name: "Catalog.importIndexes", parent: "Catalog.load" }
      ])
    })
  )

  it.effect("making the searches is a Search.make span; a search itself adds none", () =>
    Effect.gen(function* () {
      const catalog = yield* loadSnapshot(yield* buildFixtureSnapshot(), fixtureOrigin)
      const searchLayer = SearchLive.pipe(
        Layer.provide([
          Layer.succeed(Catalog, catalog),
          CatalogConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson({}))))
        ])
      )
      const { result: page, spans } = yield* traced(
        Effect.map(Search, (search) =>
          search.episodes({ q: undefined, session: undefined, limit: 2, cursor: undefined })
        ).pipe(Effect.provide(searchLayer))
      )
      expect(Either.getOrThrow(page).data).toHaveLength(2)
      expect(spans.map((span) => span.name)).toEqual(["Search.make"])
    })
  )
})

// The real service serving a catalog snapshot freshly built from the fixture podcast (foundation
// off), plus where that snapshot lives so tests can compare answers with its files.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { buildCatalog } from "../../build/BuildCatalog.js"
import { type FixtureOptions, writeFixturePodcast } from "./FixturePodcast.js"
import { testServer } from "./TestServer.js"

export class FixtureSnapshot extends Context.Tag("FixtureSnapshot")<
  FixtureSnapshot,
  {
    readonly directory: string
    /** A file of the snapshot, by its path relative to the snapshot root. */
    readonly file: (path: string) => Buffer
    readonly manifest: {
      readonly id: string
      readonly episodes: Record<string, string>
      readonly transcripts: Record<string, string>
      readonly files: Record<string, { readonly sha256: string }>
      readonly index: ReadonlyArray<string>
    }
  }
>() {}

/** The origin the test service answers from (PUBLIC_ORIGIN): its links start with it. */
export const fixtureOrigin = "https://catalog.example"

/** Builds the fixture podcast's snapshot into a temporary folder. */
export const buildFixtureSnapshot = (fixture: FixtureOptions = {}) =>
  Effect.gen(function* () {
    const paths = writeFixturePodcast(fixture)
    yield* buildCatalog({
      feed: paths.feed,
      docs: paths.docs,
      out: paths.out,
      sourceDateEpoch: undefined,
      progress: () => {}
    })
    return paths.out
  })

/** The service (catalog only) on a free port over the snapshot in `directory`. */
export const catalogServerOn = (directory: string, settings: Record<string, string> = {}) => {
  const file = (path: string) => readFileSync(join(directory, path))
  return Layer.merge(
    testServer({
      FOUNDATION_ENABLED: "false",
      CATALOG_DIR: directory,
      PUBLIC_ORIGIN: fixtureOrigin,
      ...settings
    }),
    Layer.succeed(FixtureSnapshot, {
      directory,
      file,
      manifest: JSON.parse(file("manifest.json").toString("utf8"))
    })
  )
}

/** The service on a free port over a fresh fixture snapshot; `settings` are extra environment variables. */
export const catalogTestServer = (settings: Record<string, string> = {}, fixture: FixtureOptions = {}) =>
  Layer.unwrapEffect(
    Effect.map(buildFixtureSnapshot(fixture), (directory) => catalogServerOn(directory, settings))
  ).pipe(Layer.orDie)

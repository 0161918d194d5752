// The server refuses to start on a missing or corrupt snapshot, saying which file is wrong.
import { spawnSync } from "node:child_process"
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { loadSnapshot } from "../../src/catalog/Catalog.js"
import { buildFixtureSnapshot, fixtureOrigin } from "../support/CatalogTestServer.js"
import { tempDir } from "../support/TempDir.js"

/** A private copy of a freshly built snapshot that a test may damage. */
const damageable = Effect.map(buildFixtureSnapshot(), (built) => {
  const copy = join(tempDir("damaged-"), "snapshot")
  cpSync(built, copy, { recursive: true })
  const manifest = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8"))
  return { directory: copy, manifest }
})

describe("loading a snapshot", () => {
  it.effect("loads a good snapshot with everything the manifest names", () =>
    Effect.gen(function* () {
      const { directory } = yield* damageable
      const catalog = yield* loadSnapshot(directory, fixtureOrigin)
      expect(catalog.episodes).toHaveLength(6)
      expect(catalog.episodeResponse("4")).toBeDefined()
      expect(catalog.transcript("2")?.format).toBe("srt")
    })
  )

  it.effect("refuses a folder without a manifest and says how to build one", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(loadSnapshot(join(tmpdir(), "no-such-snapshot"), fixtureOrigin))
      expect(error.message).toContain("manifest.json is missing")
      expect(error.message).toContain("npm run build:catalog")
    })
  )

  it.effect("refuses a file whose bytes do not match the manifest, naming it", () =>
    Effect.gen(function* () {
      const { directory, manifest } = yield* damageable
      const path = manifest.episodes["3"] as string
      const bytes = readFileSync(join(directory, path))
      bytes[10] = (bytes[10] ?? 0) ^ 1
      writeFileSync(join(directory, path), bytes)
      const error = yield* Effect.flip(loadSnapshot(directory, fixtureOrigin))
      expect(error.message).toContain(`${path} does not match its hash`)
    })
  )

  it.effect("refuses a file cut short or grown, naming it", () =>
    Effect.gen(function* () {
      const { directory, manifest } = yield* damageable
      const short = manifest.episodes["3"] as string
      const bytes = readFileSync(join(directory, short))
      writeFileSync(join(directory, short), bytes.subarray(0, bytes.byteLength - 1))
      expect((yield* Effect.flip(loadSnapshot(directory, fixtureOrigin))).message).toContain(
        `${short} does not match its hash`
      )
      writeFileSync(join(directory, short), bytes)
      const grown = manifest.collections.episodes as string
      writeFileSync(
        join(directory, grown),
        Buffer.concat([readFileSync(join(directory, grown)), Buffer.from(" ")])
      )
      expect((yield* Effect.flip(loadSnapshot(directory, fixtureOrigin))).message).toContain(
        `${grown} does not match its hash`
      )
    })
  )

  it.effect("refuses a snapshot with a file missing, naming it", () =>
    Effect.gen(function* () {
      const { directory, manifest } = yield* damageable
      const path = `${manifest.transcripts["1"]}.br`
      rmSync(join(directory, path))
      const error = yield* Effect.flip(loadSnapshot(directory, fixtureOrigin))
      expect(error.message).toContain(`${path} is missing`)
    })
  )

  it.effect("refuses a manifest that is not JSON or not a manifest", () =>
    Effect.gen(function* () {
      const { directory } = yield* damageable
      writeFileSync(join(directory, "manifest.json"), "{ not json")
      expect((yield* Effect.flip(loadSnapshot(directory, fixtureOrigin))).message).toContain(
        "manifest.json is not JSON"
      )
      writeFileSync(join(directory, "manifest.json"), JSON.stringify({ id: "x" }))
      expect((yield* Effect.flip(loadSnapshot(directory, fixtureOrigin))).message).toContain(
        "manifest.json is not a valid manifest"
      )
    })
  )

  it.effect("the service exits with one clear line when its snapshot is corrupt", () =>
    Effect.gen(function* () {
      const { directory, manifest } = yield* damageable
      const path = manifest.collections.episodes as string
      writeFileSync(join(directory, path), "[]")
      const result = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
        encoding: "utf8",
        env: { ...process.env, CATALOG_DIR: directory, FOUNDATION_ENABLED: "false", PORT: "0" },
        timeout: 60_000
      })
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(
        `Cannot start: cannot load the catalog snapshot at ${directory}: ${path}`
      )
      expect(result.stderr).not.toContain("    at ")
    })
  )
})

// The snapshot as a documented format (catalog-extensions §6): the manifest names its formatVersion
// and a JSON Schema per kind of file, shipped in the snapshot; every file the build writes is valid
// against the schema of its kind, read with a JSON Schema 2020-12 validator that knows nothing of
// Effect. Checked on the fixture podcast and on the demo in content/.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import * as Effect from "effect/Effect"
import { snapshotFormatVersion } from "../../src/catalog/domain/Manifest.js"
import { type SnapshotFileKind, snapshotFileSchemas } from "../../src/catalog/domain/SnapshotFormat.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { buildContentSnapshot } from "../support/ContentTestServer.js"

interface Manifest {
  readonly formatVersion: string
  readonly episodes: Record<string, string>
  readonly transcripts: Record<string, string>
  readonly indexes: Record<string, ReadonlyArray<readonly [string, string]>>
  readonly collections: { readonly episodes: string; readonly searchData: string; readonly docs: string }
  readonly schemas: Record<SnapshotFileKind, string>
  readonly files: Record<string, unknown>
}

/** Every JSON file of the snapshot with the kind of file it is, the manifest first. */
const filesByKind = (manifest: Manifest): Array<readonly [string, SnapshotFileKind]> => [
  ["manifest.json", "manifest"],
  ...Object.values(manifest.episodes).map((path) => [path, "episode"] as const),
  ...Object.values(manifest.transcripts).map((path) => [path, "transcript"] as const),
  [manifest.collections.episodes, "episodes"],
  [manifest.collections.searchData, "searchData"],
  [manifest.collections.docs, "docs"],
  ...Object.values(manifest.indexes).flatMap((chunks) =>
    chunks.map(([key, path]) => [path, key.endsWith(".reg") ? "indexRegister" : "indexMap"] as const)
  )
]

const checkSnapshot = (directory: string) => {
  const read = (path: string): unknown => JSON.parse(readFileSync(join(directory, path), "utf8"))
  const manifest = read("manifest.json") as Manifest
  expect(manifest.formatVersion).toBe(snapshotFormatVersion)
  expect(Object.keys(manifest.schemas).sort()).toEqual(Object.keys(snapshotFileSchemas).sort())
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const validators = new Map(
    Object.entries(manifest.schemas).map(([kind, path]) => {
      // The schemas are files of the snapshot like any other.
      expect(manifest.files[path]).toBeDefined()
      return [kind, ajv.compile(read(path) as object)] as const
    })
  )
  const checked = new Map<SnapshotFileKind, number>()
  const listed = filesByKind(manifest)
  for (const [path, kind] of listed) {
    const validate = validators.get(kind)
    expect(validate, kind).toBeDefined()
    const valid = validate?.(read(path))
    expect(valid, `${path} (${kind}): ${ajv.errorsText(validate?.errors)}`).toBe(true)
    checked.set(kind, (checked.get(kind) ?? 0) + 1)
  }
  // Every kind was exercised, and every JSON file of the snapshot has a kind (schemas aside).
  expect([...checked.keys()].sort()).toEqual(Object.keys(snapshotFileSchemas).sort())
  const jsonFiles = Object.keys(manifest.files).filter(
    (path) => path.endsWith(".json") && !path.startsWith("schemas/")
  )
  expect(new Set(listed.map(([path]) => path))).toEqual(new Set(["manifest.json", ...jsonFiles]))
  return { manifest, read, validators }
}

describe("the snapshot's format", () => {
  it.effect(
    "every file of the fixture snapshot is valid against the schema the snapshot ships for its kind",
    () =>
      Effect.gen(function* () {
        const { manifest, read, validators } = checkSnapshot(yield* buildFixtureSnapshot())
        // The schemas refuse what the format does not allow: an absolute API link in a file, a wrong version.
        const episode = read(manifest.episodes["4"] as string) as { data: { links: { api: string } } }
        expect(episode.data.links.api).toBe("v1/episodes/4")
        expect(
          validators.get("episode")?.({ ...episode, data: { ...episode.data, links: { api: 1 } } })
        ).toBe(false)
        expect(
          validators.get("manifest")?.({ ...(read("manifest.json") as object), formatVersion: "0" })
        ).toBe(false)
      }),
    120_000
  )

  it.effect(
    "every file of the demo snapshot is valid against its schema",
    () => Effect.map(buildContentSnapshot, (directory) => void checkSnapshot(directory)),
    120_000
  )
})

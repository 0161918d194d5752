// The snapshot as a documented format (catalog-extensions §6): the manifest names its formatVersion
// and a JSON Schema per kind of file, shipped in the snapshot; every file the build writes is valid
// against the schema of its kind, read with a JSON Schema 2020-12 validator that knows nothing of
// Effect. The static search files and the search page are listed in a table of their own (the
// manifest names it), each with its hash and a gzip copy. Checked on the fixture podcast and on the demo in content/.
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import * as Effect from "effect/Effect"
import { snapshotFormatVersion } from "../../src/catalog/domain/Manifest.js"
import { type SnapshotFileKind, snapshotFileSchemas } from "../../src/catalog/domain/SnapshotFormat.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { buildContentSnapshotWith, splitFrequentTerms } from "../support/ContentTestServer.js"

interface Manifest {
  readonly formatVersion: string
  readonly episodes: Record<string, string>
  readonly transcripts: Record<string, string>
  readonly indexes: Record<string, ReadonlyArray<readonly [string, string]>>
  readonly collections: { readonly episodes: string; readonly searchData: string; readonly docs: string }
  readonly schemas: Record<SnapshotFileKind, string>
  readonly search: {
    readonly entry: string
    readonly episodes: string
    readonly transcripts: string
    readonly files: string
  }
  readonly files: Record<string, unknown>
}

interface Folder {
  readonly folder: string
}

/** Every file under a folder, by path relative to it. */
const filesUnder = (root: string, prefix: string): Array<string> =>
  readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`]
  )

/** Every static search JSON file with its kind, from the files that describe them. */
const searchFilesByKind = (
  manifest: Manifest,
  read: (path: string) => unknown
): Array<readonly [string, SnapshotFileKind]> => {
  const episodes = read(manifest.search.episodes) as { shards: Folder }
  const transcripts = read(manifest.search.transcripts) as { shards: Folder; texts: Folder; lengths: Folder }
  const table = read(manifest.search.files) as Record<string, unknown>
  const kindOf = (path: string): SnapshotFileKind => {
    const inFolder = (folder: Folder) => path.startsWith(`${folder.folder}/`)
    if (path === manifest.search.entry) return "searchEntry"
    if (path === manifest.search.episodes) return "episodeSearch"
    if (path === manifest.search.transcripts) return "transcriptSearch"
    if (inFolder(episodes.shards)) return "episodeShard"
    if (inFolder(transcripts.shards))
      return /-head-lengths\.json$/.test(path)
        ? "lengthBlock"
        : /-[0-9]+(-head)?\.json$/.test(path)
          ? "paragraphPostings"
          : "paragraphShard"
    if (inFolder(transcripts.texts)) return "textBlock"
    if (inFolder(transcripts.lengths)) return "lengthBlock"
    throw new Error(`${path}: a static search file of no known kind`)
  }
  return Object.keys(table)
    .filter((path) => path.endsWith(".json"))
    .map((path) => [path, kindOf(path)] as const)
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

/**
 * The static search files on disk (the search page's among them: `index.html` and its folder under
 * `search/`) are those the table lists, with their hashes, sizes and gzip copies.
 */
const checkSearchTable = (directory: string, manifest: Manifest) => {
  const table = JSON.parse(readFileSync(join(directory, manifest.search.files), "utf8")) as Record<
    string,
    { sha256: string; bytes: number }
  >
  const onDisk = [
    ...filesUnder(directory, "search"),
    ...readdirSync(directory).filter(
      (name) => name.startsWith("search.json") || name.startsWith("index.html")
    )
  ]
  expect(Object.keys(table).sort()).toEqual(onDisk.sort())
  for (const [path, entry] of Object.entries(table)) {
    const data = readFileSync(join(directory, path))
    expect({ path, sha256: createHash("sha256").update(data).digest("hex"), bytes: data.byteLength }).toEqual(
      {
        path,
        ...entry
      }
    )
    if (path.endsWith(".json"))
      expect(gunzipSync(readFileSync(join(directory, `${path}.gz`))).equals(data)).toBe(true)
  }
}

/** Every kind but `except` (the whole lists of frequent terms need a catalog with frequent terms). */
const checkSnapshot = (directory: string, except: ReadonlyArray<SnapshotFileKind> = []) => {
  const read = (path: string): unknown => JSON.parse(readFileSync(join(directory, path), "utf8"))
  const manifest = read("manifest.json") as Manifest
  checkSearchTable(directory, manifest)
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
  const listedSearch = searchFilesByKind(manifest, read)
  for (const [path, kind] of [...listed, ...listedSearch, [manifest.search.files, "searchFiles"] as const]) {
    const validate = validators.get(kind)
    expect(validate, kind).toBeDefined()
    const valid = validate?.(read(path))
    expect(valid, `${path} (${kind}): ${ajv.errorsText(validate?.errors)}`).toBe(true)
    checked.set(kind, (checked.get(kind) ?? 0) + 1)
  }
  // Every kind was exercised, and every JSON file of the snapshot has a kind (schemas aside).
  expect([...checked.keys()].sort()).toEqual(
    Object.keys(snapshotFileSchemas)
      .filter((kind) => !except.includes(kind as SnapshotFileKind))
      .sort()
  )
  const jsonFiles = Object.keys(manifest.files).filter(
    (path) => path.endsWith(".json") && !path.startsWith("schemas/")
  )
  expect(new Set([...listed.map(([path]) => path), manifest.search.files])).toEqual(
    new Set(["manifest.json", ...jsonFiles])
  )
  return { manifest, read, validators }
}

describe("the snapshot's format", () => {
  it.effect(
    "every file of the fixture snapshot is valid against the schema the snapshot ships for its kind",
    () =>
      Effect.gen(function* () {
        const { manifest, read, validators } = checkSnapshot(yield* buildFixtureSnapshot(), [
          "paragraphPostings"
        ])
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
    "every file of the demo snapshot is valid against its schema, frequent terms split as on a large catalog",
    () =>
      Effect.map(
        buildContentSnapshotWith({ staticSearch: splitFrequentTerms }),
        (directory) => void checkSnapshot(directory)
      ),
    120_000
  )
})

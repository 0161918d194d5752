// The first step of loading a snapshot: its manifest.json, read and decoded with the manifest's
// schema, which names every other file with its hash and size.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { SnapshotManifest } from "../domain/Manifest.js"
import { failLoading } from "./CatalogLoadError.js"

export interface ManifestFile {
  readonly path: string
  /** The manifest exactly as it is on disk, served as `GET /v1/snapshot`. */
  readonly bytes: Buffer
  readonly manifest: SnapshotManifest
}

export const readManifest = (directory: string): ManifestFile => {
  const fail = failLoading(directory)
  const path = join(directory, "manifest.json")
  if (!existsSync(path)) fail("manifest.json is missing; build the snapshot with `npm run build:catalog`")
  const bytes = readFileSync(path)
  let json: unknown
  try {
    json = JSON.parse(bytes.toString("utf8"))
  } catch {
    fail("manifest.json is not JSON")
  }
  const decoded = Schema.decodeUnknownEither(SnapshotManifest)(json)
  const manifest =
    decoded._tag === "Left"
      ? fail(
          `manifest.json is not a valid manifest: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
        )
      : decoded.right
  return { path, bytes, manifest }
}

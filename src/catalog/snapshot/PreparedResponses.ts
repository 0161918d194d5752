// The snapshot's answers prepared once at start-up: every detail, snapshot file and the manifest as
// bytes with their precompressed copies and ETags (the hash of the exact bytes), so serving one is
// a lookup. Details are answered with their links on the instance's origin: those bytes are made at
// load (OriginBytes.ts), their compressed copies on the first request that asks for each coding.
// Snapshot files are answered exactly as they are in the folder.
import { existsSync, readFileSync } from "node:fs"
import {
  etagFromSha256,
  type PreparedResponse,
  prepareJson,
  type Variant,
  variant
} from "../../http/PreparedResponse.js"
import { cacheControl } from "../CacheControl.js"
import { failLoading } from "./CatalogLoadError.js"
import { withOrigin } from "./OriginBytes.js"
import type { ManifestFile } from "./ReadManifest.js"
import type { VerifiedFiles } from "./VerifiedFiles.js"

export interface PreparedResponses {
  readonly episode: (slug: string) => PreparedResponse | undefined
  readonly transcript: (slug: string) => PreparedResponse | undefined
  /** A snapshot file by its path relative to the snapshot root (`/snapshot/{path}`). */
  readonly file: (path: string) => PreparedResponse | undefined
  readonly manifest: PreparedResponse
}

const contentTypeOf = (path: string) =>
  path.endsWith(".json")
    ? "application/json"
    : path.endsWith(".gz")
      ? "application/gzip"
      : path.endsWith(".br")
        ? "application/x-brotli"
        : "application/octet-stream"

export const prepareResponses = (
  directory: string,
  { path: manifestPath, bytes: manifestBytes, manifest }: ManifestFile,
  files: VerifiedFiles,
  origin: string
): PreparedResponses => {
  const fail = failLoading(directory)
  const hashed = (path: string): Variant | undefined => {
    const data = files.all.get(path)
    const entry = manifest.files[path]
    return data === undefined || entry === undefined
      ? undefined
      : { body: data, etag: etagFromSha256(entry.sha256) }
  }
  /** The JSON file at `path` with its precompressed copies. */
  const jsonResponse = (path: string, cache: string): PreparedResponse => {
    const identity = hashed(path) ?? fail(`${path} is missing from the snapshot`)
    const gzip = hashed(`${path}.gz`)
    const br = hashed(`${path}.br`)
    return {
      contentType: "application/json",
      cacheControl: cache,
      variants: { identity, ...(gzip ? { gzip } : {}), ...(br ? { br } : {}) }
    }
  }

  /** A detail as this instance answers it: the file's bytes with its API links on `origin`. */
  const detailResponse = (path: string): PreparedResponse => {
    const stored = files.all.get(path) ?? fail(`${path} is missing from the snapshot`)
    const bytes = withOrigin(stored, origin)
    return prepareJson(bytes, cacheControl.detail)
  }

  const episodes = new Map<string, PreparedResponse>()
  for (const [slug, path] of Object.entries(manifest.episodes)) episodes.set(slug, detailResponse(path))
  const transcripts = new Map<string, PreparedResponse>()
  for (const [slug, path] of Object.entries(manifest.transcripts)) transcripts.set(slug, detailResponse(path))
  const snapshotFiles = new Map<string, PreparedResponse>()
  for (const path of files.all.keys()) {
    snapshotFiles.set(
      path,
      path.endsWith(".json")
        ? jsonResponse(path, cacheControl.immutable)
        : {
            contentType: contentTypeOf(path),
            cacheControl: cacheControl.immutable,
            variants: { identity: hashed(path) as Variant }
          }
    )
  }
  // The manifest's own compressed copies are not in its file table (it cannot hash itself).
  const readOptional = (path: string) => (existsSync(path) ? variant(readFileSync(path)) : undefined)
  const manifestGzip = readOptional(`${manifestPath}.gz`)
  const manifestBr = readOptional(`${manifestPath}.br`)
  const manifestResponse: PreparedResponse = {
    contentType: "application/json",
    cacheControl: cacheControl.collection,
    variants: {
      identity: variant(manifestBytes),
      ...(manifestGzip ? { gzip: manifestGzip } : {}),
      ...(manifestBr ? { br: manifestBr } : {})
    }
  }

  return {
    episode: (slug) => episodes.get(slug),
    transcript: (slug) => transcripts.get(slug),
    file: (path) => snapshotFiles.get(path),
    manifest: manifestResponse
  }
}

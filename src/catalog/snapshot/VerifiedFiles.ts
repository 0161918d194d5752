// Every file the manifest names, read and checked against its size and SHA-256: a snapshot that is
// incomplete or corrupt is refused, naming the file. Synchronous reads are the fastest way to pull
// a few hundred megabytes at start-up, when nothing else is running.
import { createHash } from "node:crypto"
import { closeSync, openSync, readSync, statSync } from "node:fs"
import { join } from "node:path"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { SnapshotManifest } from "../domain/Manifest.js"
import { failLoading } from "./CatalogLoadError.js"

export interface VerifiedFiles {
  /** Every verified file's bytes by its path relative to the snapshot root. */
  readonly all: ReadonlyMap<string, Buffer>
  /** A file the manifest names elsewhere (a detail, a collection, an index chunk). */
  readonly file: (path: string) => Buffer
  /** A JSON file decoded with its schema, its bytes first passed through `bytes` when given. */
  readonly decode: <A, I>(schema: Schema.Schema<A, I>, path: string, bytes?: (data: Buffer) => Buffer) => A
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex")

/** Fills `target` from the start of the file; returns how many bytes the file gave. */
const readInto = (path: string, target: Buffer): number => {
  const fd = openSync(path, "r")
  try {
    let filled = 0
    while (filled < target.byteLength) {
      const read = readSync(fd, target, filled, target.byteLength - filled, filled)
      if (read === 0) break
      filled += read
    }
    return filled
  } finally {
    closeSync(fd)
  }
}

export const readVerifiedFiles = (directory: string, manifest: SnapshotManifest): VerifiedFiles => {
  const fail = failLoading(directory)
  // Every file is read into one buffer: thousands of separate buffers make the garbage collector
  // react to each new chunk of outside memory, which cost a few hundred milliseconds of start-up.
  const entries = Object.entries(manifest.files)
  const corrupt = (path: string) =>
    fail(`${path} does not match its hash in the manifest (the snapshot is corrupt; rebuild it)`)
  for (const [path, entry] of entries) {
    const stat = statSync(join(directory, path), { throwIfNoEntry: false })
    if (stat === undefined) fail(`${path} is missing (the snapshot is incomplete; rebuild it)`)
    else if (stat.size !== entry.bytes) corrupt(path)
  }
  const arena = Buffer.allocUnsafeSlow(entries.reduce((sum, [, entry]) => sum + entry.bytes, 0))
  const all = new Map<string, Buffer>()
  let offset = 0
  for (const [path, entry] of entries) {
    const data = arena.subarray(offset, offset + entry.bytes)
    offset += entry.bytes
    if (readInto(join(directory, path), data) !== entry.bytes || sha256(data) !== entry.sha256) corrupt(path)
    all.set(path, data)
  }
  const file = (path: string): Buffer =>
    all.get(path) ?? fail(`${path} is named by the manifest but not listed in its files`)
  return {
    all,
    file,
    decode: (schema, path, bytes = (data) => data) => {
      const result = Schema.decodeUnknownEither(schema)(JSON.parse(bytes(file(path)).toString("utf8")))
      return result._tag === "Right"
        ? result.right
        : fail(`${path}: ${ParseResult.TreeFormatter.formatErrorSync(result.left)}`)
    }
  }
}

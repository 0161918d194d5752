// Writes a snapshot folder: every file named by its content hash, gzip and brotli copies of each,
// and the manifest last. Everything goes to a temporary sibling folder that replaces the target
// only once complete, so a failed or interrupted build never leaves a half-written snapshot.
import { mkdir, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { sha256Hex } from "./Records.js"

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/** Brotli's best quality is slow (about 1 MB/s); large files get quality 7 (about 40 MB/s), some 15% larger. */
const brotliQuality = (bytes: number) => (bytes <= 64 * 1024 ? 11 : 7)

export const compressions = {
  gzip: (data: Uint8Array) => gzip(data, { level: 9 }),
  brotli: (data: Uint8Array) =>
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(data.byteLength),
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT
      }
    })
}

export interface SnapshotEntry {
  readonly sha256: string
  readonly bytes: number
}

/** A content-addressed file name: `<folder>/<stem>.<first 16 hex of SHA-256>.json`. */
export const hashedPath = (folder: string, stem: string, data: Uint8Array) =>
  `${folder}/${stem.replace(/[^A-Za-z0-9_-]+/g, "-")}.${sha256Hex(data).slice(0, 16)}.json`

/** Runs `work` over `items` with at most `limit` in flight, keeping results in input order. */
const mapLimited = async <A, B>(items: ReadonlyArray<A>, limit: number, work: (item: A) => Promise<B>) => {
  const results = new Array<B>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as A)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

export interface StagedSnapshot {
  /** Adds a JSON file under a content-hashed name and returns that name. */
  readonly addJson: (folder: string, stem: string, json: string) => string
  /** Writes every file and its compressed copies; returns the manifest's file table. */
  readonly writeFiles: (progress: (message: string) => void) => Promise<Record<string, SnapshotEntry>>
  /** Writes the manifest (and its compressed copies) and moves the folder into place. */
  readonly commit: (manifestJson: string) => Promise<void>
  readonly discard: () => Promise<void>
}

export const stageSnapshot = (out: string): StagedSnapshot => {
  const staging = `${out}.tmp-${process.pid}`
  const files = new Map<string, Buffer>()

  const writeWithCopies = async (path: string, data: Buffer) => {
    const [gz, br] = await Promise.all([compressions.gzip(data), compressions.brotli(data)])
    const target = join(staging, path)
    await mkdir(dirname(target), { recursive: true })
    await Promise.all([writeFile(target, data), writeFile(`${target}.gz`, gz), writeFile(`${target}.br`, br)])
    return [
      [path, data],
      [`${path}.gz`, gz],
      [`${path}.br`, br]
    ] as const
  }

  return {
    addJson: (folder, stem, json) => {
      const data = Buffer.from(json, "utf8")
      const path = hashedPath(folder, stem, data)
      files.set(path, data)
      return path
    },
    writeFiles: async (progress) => {
      await rm(staging, { recursive: true, force: true })
      await mkdir(staging, { recursive: true })
      const paths = [...files.keys()].sort()
      let written = 0
      // zlib runs on the libuv pool: a few files at a time keep both cores busy.
      const writtenFiles = await mapLimited(paths, 8, async (path) => {
        const result = await writeWithCopies(path, files.get(path) as Buffer)
        if (++written % 500 === 0) progress(`wrote ${written}/${paths.length} files`)
        return result
      })
      const table: Record<string, SnapshotEntry> = {}
      for (const [path, data] of writtenFiles.flat().sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        table[path] = { sha256: sha256Hex(data), bytes: data.byteLength }
      }
      return table
    },
    commit: async (manifestJson) => {
      await writeWithCopies("manifest.json", Buffer.from(manifestJson, "utf8"))
      const previous = `${out}.old-${process.pid}`
      await rm(previous, { recursive: true, force: true })
      await rename(out, previous).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error
      })
      await rename(staging, out)
      await rm(previous, { recursive: true, force: true })
    },
    discard: () => rm(staging, { recursive: true, force: true })
  }
}

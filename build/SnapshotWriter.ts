// Writes a snapshot folder: every file named by its content hash, gzip and brotli copies of each,
// the static search files (gzip copies only: their readers fetch those) as they are made, in folders
// named by a hash of their content, and the manifest last. Everything goes to a temporary sibling folder that replaces the target
// only once complete, so a failed or interrupted build never leaves a half-written snapshot.
import { createHash } from "node:crypto"
import { mkdir, rename, rm, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { sha256Hex } from "./Records.js"

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/**
 * Brotli's best quality is slow (about 1 MB/s): files up to 64 KB get quality 10, half its CPU for 1.6 %
 * more bytes (measured on the corpus' 1,503 such files: 8.7 → 4.1 s of CPU, 1.737 → 1.765 MB). Larger
 * files get quality 5: on the corpus' 1,016 of them (191 MB) quality 7 took 27.0 s of CPU for 40.95 MB,
 * quality 5 5.8 s for 42.46 MB (3.7 % more), which kept the build under its minute.
 */
const brotliQuality = (bytes: number) => (bytes <= 64 * 1024 ? 10 : 5)

export const compressions = {
  gzip: (data: Uint8Array) => gzip(data, { level: 9 }),
  /**
   * The static search files' copies: level 9 took 22 s of CPU for the corpus' posting lists (runs of
   * numbers, where its long match searches find little) against 6 s at level 6, for 2% fewer bytes.
   */
  searchGzip: (data: Uint8Array) => gzip(data, { level: 6 }),
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

const entryOf = (data: Uint8Array): SnapshotEntry => ({ sha256: sha256Hex(data), bytes: data.byteLength })

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

/** Runs `work` over what `items` yields, at most `limit` at a time, taking each item only when a slot is free. */
const forEachLimited = async <A>(items: Iterable<A>, limit: number, work: (item: A) => Promise<void>) => {
  const iterator = items[Symbol.iterator]()
  const worker = async () => {
    for (let next = iterator.next(); next.done !== true; next = iterator.next()) await work(next.value)
  }
  await Promise.all(Array.from({ length: limit }, worker))
}

export interface StagedSnapshot {
  /** Adds a JSON file under a content-hashed name and returns that name. */
  readonly addJson: (folder: string, stem: string, json: string) => string
  /** Writes a static search file and its gzip copy now, at `path`. */
  readonly writeSearchFile: (path: string, json: string) => Promise<void>
  /**
   * Writes the files `files` yields (`[name, json]`, read one at a time, so they need not all be in
   * memory) and their gzip copies into `search/<stem>.<first 16 hex of a hash of them all>`; returns
   * that folder's path.
   */
  readonly writeSearchFolder: (stem: string, files: Iterable<readonly [string, string]>) => Promise<string>
  /** Every static search file written so far, with its hash and size, by path. */
  readonly searchFiles: () => Record<string, SnapshotEntry>
  /** Writes every file and its compressed copies; returns the manifest's file table. */
  readonly writeFiles: (progress: (message: string) => void) => Promise<Record<string, SnapshotEntry>>
  /** Writes the manifest (and its compressed copies) and moves the folder into place. */
  readonly commit: (manifestJson: string) => Promise<void>
  readonly discard: () => Promise<void>
}

export const stageSnapshot = (out: string): StagedSnapshot => {
  const staging = `${out}.tmp-${process.pid}`
  const files = new Map<string, Buffer>()
  const searchTable = new Map<string, SnapshotEntry>()
  let prepared: Promise<void> | undefined
  /** A fresh, empty staging folder, made once. */
  const prepare = () => {
    prepared ??= rm(staging, { recursive: true, force: true }).then(() =>
      mkdir(staging, { recursive: true }).then(() => undefined)
    )
    return prepared
  }
  /** Writes `data` and its gzip copy at `target` (in the staging folder); returns both entries. */
  const writeWithGzip = async (target: string, data: Buffer) => {
    const gz = await compressions.searchGzip(data)
    await Promise.all([writeFile(target, data), writeFile(`${target}.gz`, gz)])
    return { identity: entryOf(data), gzip: entryOf(gz) }
  }

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
    writeSearchFile: async (path, json) => {
      await prepare()
      const target = join(staging, path)
      await mkdir(dirname(target), { recursive: true })
      const written = await writeWithGzip(target, Buffer.from(json, "utf8"))
      searchTable.set(path, written.identity)
      searchTable.set(`${path}.gz`, written.gzip)
    },
    writeSearchFolder: async (stem, folderFiles) => {
      await prepare()
      const partial = `search/${stem}.partial`
      await mkdir(join(staging, partial), { recursive: true })
      const written = new Map<string, { identity: SnapshotEntry; gzip: SnapshotEntry }>()
      await forEachLimited(folderFiles, 8, async ([name, json]) => {
        written.set(name, await writeWithGzip(join(staging, partial, name), Buffer.from(json, "utf8")))
      })
      const names = [...written.keys()].sort()
      const hash = createHash("sha256")
      for (const name of names) hash.update(`${name} ${written.get(name)?.identity.sha256}\n`)
      const folder = `search/${stem}.${hash.digest("hex").slice(0, 16)}`
      await rename(join(staging, partial), join(staging, folder))
      for (const name of names) {
        const entry = written.get(name) as { identity: SnapshotEntry; gzip: SnapshotEntry }
        searchTable.set(`${folder}/${name}`, entry.identity)
        searchTable.set(`${folder}/${name}.gz`, entry.gzip)
      }
      return folder
    },
    searchFiles: () =>
      Object.fromEntries([...searchTable.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    addJson: (folder, stem, json) => {
      const data = Buffer.from(json, "utf8")
      const path = hashedPath(folder, stem, data)
      files.set(path, data)
      return path
    },
    writeFiles: async (progress) => {
      await prepare()
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
        table[path] = entryOf(data)
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

// The catalog's one least-recently-used cache (search rankings, encoded answers, decoded
// transcripts), kept by the `lru-cache` library rather than by a module of ours: measured against
// the Map-based LRU each of those places had written for itself (`npm run bench -- lru-cache`),
// a hit costs about 25 ns instead of 55 (a Map records use by deleting and re-inserting the key)
// and a set that evicts about 140 ns instead of 500 (a Map finds its oldest key by walking past
// the slots its deletes left); only a miss costs more, about 12 ns instead of 7, next to the
// search of many microseconds that follows every miss.
import * as Either from "effect/Either"
import { LRUCache } from "lru-cache"

/** A cache of at most a fixed number of values by string key; the least recently used goes first. */
export type LruCache<V extends {}> = LRUCache<string, V>

export const makeLruCache = <V extends {}>(capacity: number): LruCache<V> =>
  new LRUCache<string, V>({ max: capacity })

/**
 * A cache bounded by the total size of what it keeps as well: `sizeOf` an entry (any unit, at least
 * 1), at most `maxSize` in all; an entry larger than `maxSize` is not kept at all.
 */
export const makeSizedLruCache = <V extends {}>(
  capacity: number,
  maxSize: number,
  sizeOf: (value: V, key: string) => number
): LruCache<V> =>
  new LRUCache<string, V>({
    max: capacity,
    maxSize,
    sizeCalculation: (value, key) => Math.max(1, sizeOf(value, key))
  })

/** The value kept under `key`, else `compute`'s, which is kept from then on. */
export const getOrCompute = <V extends {}>(cache: LruCache<V>, key: string, compute: () => V): V => {
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const value = compute()
  cache.set(key, value)
  return value
}

/**
 * The value kept under `key`, else `compute`'s result. A success is kept when `admit(key)` says so
 * (always, by default); a failure never is.
 */
export const getOrComputeRight = <V extends {}, E>(
  cache: LruCache<V>,
  key: string,
  compute: () => Either.Either<V, E>,
  admit: (key: string) => boolean = () => true
): Either.Either<V, E> => {
  const hit = cache.get(key)
  if (hit !== undefined) return Either.right(hit)
  const result = compute()
  if (Either.isRight(result) && admit(key)) cache.set(key, result.right)
  return result
}

/**
 * A doorkeeper, as in TinyLFU: `askedBefore(key)` says whether `key` was asked for since its slot
 * in a fixed table of fingerprints was last taken by another key, and records it either way. A
 * fingerprint shared by two keys only ever admits one early, and a slot taken by another key only
 * delays a key's admission to its next asking. The table is one typed array: asking allocates
 * nothing.
 */
export const makeDoorkeeper = (slots: number): ((key: string) => boolean) => {
  const size = 2 ** Math.ceil(Math.log2(Math.max(slots, 1)))
  const seen = new Int32Array(size)
  return (key) => {
    const print = fingerprint(key)
    const slot = print & (size - 1)
    if (seen[slot] === print) return true
    seen[slot] = print
    return false
  }
}

/** FNV-1a over the key's UTF-16 code units, as a 32-bit integer (what the table holds), never 0. */
const fingerprint = (key: string): number => {
  let hash = 0x811c9dc5 | 0
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash === 0 ? 1 : hash
}

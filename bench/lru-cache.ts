// The catalog's LRU cache (src/catalog/LruCache.ts, the `lru-cache` library) against the Map-based
// LRU that Search, Catalog and CatalogOperations each wrote for themselves before: the cost of a
// hit, a miss, a set that evicts, and a hit through `getOrComputeRight` (what every cached REST
// answer costs). Both caches are first checked to hit and miss alike on the same lookups. Keys
// look like the operations cache's; the capacity is its (2,000 answers).
//
//   npm run bench -- lru-cache
import * as Either from "effect/Either"
import { getOrComputeRight, makeLruCache } from "../src/catalog/LruCache.js"

interface Cache<V> {
  readonly get: (key: string) => V | undefined
  readonly set: (key: string, value: V) => void
}

/** The baseline: a Map whose insertion order is the use order (as the three caches were written). */
const mapLru = <V>(capacity: number): Cache<V> => {
  const entries = new Map<string, V>()
  return {
    get: (key) => {
      const value = entries.get(key)
      if (value !== undefined) {
        entries.delete(key)
        entries.set(key, value)
      }
      return value
    },
    set: (key, value) => {
      if (entries.size >= capacity) entries.delete(entries.keys().next().value as string)
      entries.set(key, value)
    }
  }
}

const library = <V extends {}>(capacity: number): Cache<V> => {
  const cache = makeLruCache<V>(capacity)
  return { get: (key) => cache.get(key), set: (key, value) => void cache.set(key, value) }
}

const capacity = 2000
const keys = Array.from(
  { length: 5 * capacity },
  (_, i) => `episodes ${JSON.stringify([`word${i}`, i % 7 === 0 ? 3 : null, 10, null])}`
)
const missing = keys.map((key) => `${key} `)
const value = { body: "prepared" }
const operations = 2_000_000
const rounds = 9

/**
 * Both caches hit and miss alike through the same random sequence of lookups, each miss followed
 * by a set, as the catalog uses them.
 */
const sameBehaviour = () => {
  const a = mapLru<typeof value>(capacity)
  const b = library<typeof value>(capacity)
  let state = 7
  let hits = 0
  for (let i = 0; i < 200_000; i++) {
    state = (state * 48_271) % 2_147_483_647
    // Skewed towards the first keys, as queries are: some repeat often, most rarely.
    const key = keys[Math.floor((state / 2_147_483_647) ** 3 * keys.length)] as string
    const hitA = a.get(key) !== undefined
    if (hitA !== (b.get(key) !== undefined))
      throw new Error(`the caches disagree on ${key} after ${i} lookups`)
    if (hitA) hits++
    else {
      a.set(key, value)
      b.set(key, value)
    }
  }
  if (hits === 0 || hits === 200_000) throw new Error(`the sequence should both hit and miss (${hits} hits)`)
  for (const key of keys)
    if ((a.get(key) === undefined) !== (b.get(key) === undefined))
      throw new Error(`the caches end with different keys (${key})`)
}

/** Nanoseconds per operation: median, min and max over the rounds. */
const measure = (run: () => number) => {
  const perOperation: Array<number> = []
  let sink = 0
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint()
    sink += run()
    perOperation.push(Number(process.hrtime.bigint() - started) / operations)
  }
  if (sink < 0) console.log(sink)
  perOperation.sort((x, y) => x - y)
  return {
    median: perOperation[Math.floor(rounds / 2)] ?? 0,
    min: perOperation[0] ?? 0,
    max: perOperation[rounds - 1] ?? 0
  }
}

const cases = (make: <V extends {}>(capacity: number) => Cache<V>) => {
  const warm = make<typeof value>(capacity)
  for (let i = 0; i < capacity / 2; i++) warm.set(keys[i] as string, value)
  const half = capacity / 2
  const evicting = make<typeof value>(capacity)
  return {
    "get, hit": () => {
      let found = 0
      for (let i = 0; i < operations; i++) if (warm.get(keys[i % half] as string) !== undefined) found++
      return found
    },
    "get, miss": () => {
      let found = 0
      for (let i = 0; i < operations; i++) if (warm.get(missing[i % half] as string) !== undefined) found++
      return found
    },
    "set, evicting": () => {
      for (let i = 0; i < operations; i++) evicting.set(keys[i % keys.length] as string, value)
      return 0
    }
  }
}

const cachedHit = () => {
  const cache = makeLruCache<typeof value>(capacity)
  for (let i = 0; i < capacity / 2; i++) cache.set(keys[i] as string, value)
  const compute = () => Either.right(value)
  return () => {
    let found = 0
    for (let i = 0; i < operations; i++)
      if (Either.isRight(getOrComputeRight(cache, keys[i % (capacity / 2)] as string, compute))) found++
    return found
  }
}

sameBehaviour()
const baseline = cases(mapLru)
const candidate = cases(library)
const format = (figure: { median: number; min: number; max: number }) =>
  `${figure.median.toFixed(1).padStart(6)} ns (${figure.min.toFixed(1)}–${figure.max.toFixed(1)})`
console.log(
  `${operations.toLocaleString("en")} operations per round, median of ${rounds} rounds (min–max), capacity ${capacity}; both caches hit and miss alike\n`
)
console.log(`| operation | Map LRU (before) | lru-cache (LruCache.ts) |`)
console.log(`|---|---|---|`)
// Alternating the two per operation keeps drift in the machine's load from favouring either.
for (const name of Object.keys(baseline) as Array<keyof typeof baseline>) {
  const before = measure(baseline[name])
  const after = measure(candidate[name])
  console.log(`| ${name} | ${format(before)} | ${format(after)} |`)
}
console.log(`| getOrComputeRight, hit | — | ${format(measure(cachedHit()))} |`)

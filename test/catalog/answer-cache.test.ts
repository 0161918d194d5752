// The catalog keeps an answer computed per query from that query's second asking (a doorkeeper in
// front of the LRU, CatalogOperations.ts): the doorkeeper's own rules, the cache's admission, and
// the operations' answers, the same bytes whether computed or kept.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import fc from "fast-check"
import { loadSnapshot } from "../../src/catalog/Catalog.js"
import { makeCatalogOperations } from "../../src/catalog/http/CatalogOperations.js"
import { getOrComputeRight, makeDoorkeeper, makeLruCache } from "../../src/catalog/LruCache.js"
import { makeSearch } from "../../src/catalog/Search.js"
import { buildContentSnapshot, contentOrigin } from "../support/ContentTestServer.js"

describe("the doorkeeper", () => {
  it("says a key was asked before from its second asking on", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 200 }), (keys) => {
        // 2^16 slots for at most 200 keys: two keys sharing a slot and a 32-bit fingerprint would
        // take a collision of both, which these few keys make vanishingly rare.
        const askedBefore = makeDoorkeeper(1 << 16)
        expect(keys.map(askedBefore)).toEqual(keys.map(() => false))
        expect(keys.map(askedBefore)).toEqual(keys.map(() => true))
      })
    )
  })

  it("forgets a key whose slot another key took, until it is asked again", () => {
    const askedBefore = makeDoorkeeper(1)
    expect(askedBefore("a")).toBe(false)
    expect(askedBefore("a")).toBe(true)
    expect(askedBefore("b")).toBe(false)
    expect(askedBefore("a")).toBe(false)
    expect(askedBefore("a")).toBe(true)
  })
})

describe("getOrComputeRight with a doorkeeper", () => {
  it("keeps a success only when admitted, and never a failure", () => {
    const cache = makeLruCache<{ readonly n: number }>(10)
    const askedBefore = makeDoorkeeper(64)
    let computed = 0
    const ask = (key: string, fail = false) =>
      getOrComputeRight(
        cache,
        key,
        () => {
          computed++
          return fail ? Either.left("no") : Either.right({ n: computed })
        },
        askedBefore
      )
    const first = ask("q")
    const second = ask("q")
    const third = ask("q")
    expect(computed).toBe(2)
    expect(second).not.toBe(first)
    expect(Either.getOrThrow(third)).toBe(Either.getOrThrow(second))
    ask("bad", true)
    ask("bad", true)
    ask("bad", true)
    expect(computed).toBe(5)
    expect(cache.has("bad")).toBe(false)
  })
})

describe("the catalog's answer cache", () => {
  it.effect("answers a query the same bytes when it computes it and when it keeps it", () =>
    Effect.gen(function* () {
      const catalog = yield* loadSnapshot(yield* buildContentSnapshot, contentOrigin)
      const operations = makeCatalogOperations(catalog, makeSearch(catalog, "answer-cache"))
      const word = catalog.episodes[0]?.title.split(" ")[0] ?? "the"
      for (const ask of [
        () => operations.listEpisodes({ q: word, limit: 2 }),
        () => operations.searchTranscripts({ q: word, limit: 2 })
      ]) {
        const [first, second, third] = [ask(), ask(), ask()].map(Either.getOrThrow)
        expect(second).not.toBe(first)
        expect(third).toBe(second)
        expect(
          Buffer.from(second?.variants.identity.body ?? []).equals(
            Buffer.from(first?.variants.identity.body ?? [])
          )
        ).toBe(true)
        expect(second?.variants.identity.etag).toBe(first?.variants.identity.etag)
      }
    })
  )
})

// The route table remembers the path parameters it decoded lately (a pure function of the value):
// a value is decoded by its schema once while it is remembered, a refusal is decoded again every
// time and never remembered, paths with other shapes are always decoded, and memory stays bounded.
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { decodedValuesKept, pathDecoderOf } from "../../src/catalog/http/CatalogRouteTable.js"

/** A path schema whose slug check counts how often it runs. */
const counted = () => {
  const calls = { count: 0 }
  const schema = Schema.Struct({
    slug: Schema.String.pipe(
      Schema.filter((value) => {
        calls.count++
        return /^[0-9]+$/.test(value)
      })
    )
  })
  return { calls, schema: Option.some(schema) }
}

describe("pathDecoderOf", () => {
  it("decodes a value once while it is remembered and gives the same result", () => {
    const { calls, schema } = counted()
    const decode = pathDecoderOf("/v1/episodes/:slug", schema)
    const first = decode({ slug: "7" })
    const second = decode({ slug: "7" })
    expect(Either.getOrThrow(first)).toEqual({ slug: "7" })
    expect(second).toBe(first)
    expect(calls.count).toBe(1)
  })

  it("decodes a refused value every time, and refuses it every time", () => {
    const { calls, schema } = counted()
    const decode = pathDecoderOf("/v1/episodes/:slug", schema)
    expect(Either.isLeft(decode({ slug: "abc" }))).toBe(true)
    expect(Either.isLeft(decode({ slug: "abc" }))).toBe(true)
    expect(calls.count).toBe(2)
  })

  it("forgets the least recently used value past its bound", () => {
    const { calls, schema } = counted()
    const decode = pathDecoderOf("/v1/episodes/:slug", schema)
    for (let i = 0; i <= decodedValuesKept; i++) decode({ slug: String(i) })
    expect(calls.count).toBe(decodedValuesKept + 1)
    decode({ slug: "0" })
    expect(calls.count).toBe(decodedValuesKept + 2)
    decode({ slug: String(decodedValuesKept) })
    expect(calls.count).toBe(decodedValuesKept + 2)
  })

  it("always decodes paths that do not end in their one parameter", () => {
    const { calls, schema } = counted()
    const decode = pathDecoderOf("/v1/:slug/detail", schema)
    decode({ slug: "7" })
    decode({ slug: "7" })
    expect(calls.count).toBe(2)
  })
})

// The GET router's shortcut for plain URLs finds exactly what find-my-way finds (the router of every
// HttpApi), for any URL: the same route, the same parameters, the same query.
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import * as FindMyWay from "find-my-way-ts"
import { makeGetRouter } from "../../src/http/GetRouter.js"

const paths = [
  "/health",
  "/v1/episodes",
  "/v1/episodes/:slug",
  "/v1/transcripts/search",
  "/v1/transcripts/:slug",
  "/v1/snapshot",
  "/snapshot/*",
  "/openapi.json",
  "/a/:x",
  "/a/b/:y",
  "/a/b/c"
] as const

const routes = paths.map((path) => [path, path] as const)
const shortcut = makeGetRouter(routes)
const reference = FindMyWay.make<string>()
for (const [path, handler] of routes) reference.on("GET", path, handler)

const segment = fc.constantFrom(
  "",
  "v1",
  "V1",
  "episodes",
  "Episodes",
  "transcripts",
  "search",
  "SEARCH",
  "snapshot",
  "health",
  "openapi.json",
  "a",
  "b",
  "c",
  "4",
  "-1",
  "abc",
  "%20",
  "%ZZ",
  "%2F",
  "a;b",
  "x#y",
  "1".repeat(100),
  "1".repeat(101),
  "ü"
)
const queryPart = fc.constantFrom(
  "",
  "q=fog",
  "q=a//b",
  "limit=1&limit=2",
  "x=%20",
  "a=1;b=2",
  "#frag",
  "q=A"
)
const url = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 4 }),
    fc.constantFrom("/", "//"),
    fc.boolean(),
    fc.option(queryPart, { nil: undefined })
  )
  .map(([segments, separator, trailingSlash, query]) => {
    const path = `/${segments.join(separator)}${trailingSlash ? "/" : ""}`
    return query === undefined ? path : `${path}?${query}`
  })

const found = (result: FindMyWay.FindResult<string> | undefined) =>
  result === undefined
    ? undefined
    : { handler: result.handler, params: { ...result.params }, searchParams: { ...result.searchParams } }

describe("the GET router", () => {
  it("finds what find-my-way finds, for common and odd URLs alike", () => {
    for (const fixed of [
      "/v1/episodes/4",
      "/v1/episodes/4?x=1",
      "/v1/episodes",
      "/v1/episodes/",
      "/v1/transcripts/search?q=horn",
      "/v1/transcripts/searchx",
      "/snapshot/a/b.json",
      "/a/b/c",
      "/a/b/d",
      "/a/e",
      "/V1/EPISODES/4",
      "/v1/episodes/ABC",
      "/v1/transcripts/SEARCH",
      `/v1/episodes/${"1".repeat(100)}`,
      `/v1/episodes/${"1".repeat(101)}`,
      "http://host/v1/episodes/4",
      "/v1/episodes/4?q=a//b"
    ]) {
      expect(found(shortcut.find(fixed)), fixed).toEqual(found(reference.find("GET", fixed)))
    }
    fc.assert(
      fc.property(url, (sent) => {
        expect(found(shortcut.find(sent)), sent).toEqual(found(reference.find("GET", sent)))
      }),
      { numRuns: 5000 }
    )
  })
})

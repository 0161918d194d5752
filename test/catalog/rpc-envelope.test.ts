// The envelope of the messages POSTed to /rpc: `headers` that is not an array of pairs (null, a
// number, a string, an object), an id that is not a number, a missing tag are 400 in RPC's own form
// (a typed BadRequest in an Exit when the id is usable, a Defect otherwise), never a 500; random
// envelopes never get a 5xx nor log a defect; well-formed messages are answered as before.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import fc from "fast-check"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { catalogTestServer } from "../support/CatalogTestServer.js"

const errorLines: Array<string> = []
const capturing = Logger.make(({ logLevel, message }) => {
  if (logLevel._tag === "Error" || logLevel._tag === "Fatal") errorLines.push(JSON.stringify(message))
})

const Service = catalogTestServer({ CATALOG_RATE_LIMIT: "1000000" }).pipe(
  Layer.provide(Logger.replace(Logger.defaultLogger, capturing))
)

const postRpc = (body: string) =>
  Effect.flatMap(ServerAddress, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/rpc`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body
      })
      const text = await response.text()
      return { status: response.status, json: JSON.parse(text) as unknown }
    })
  )

const getEpisode = (fields: Record<string, unknown>) =>
  JSON.stringify({
    _tag: "Request",
    id: "7",
    tag: "GetEpisode",
    payload: { slug: "1" },
    headers: [],
    ...fields
  })

describe("the RPC envelope", () => {
  it.layer(Service)((it) => {
    it.effect("headers that are not an array of pairs are a 400 typed BadRequest for that request", () =>
      Effect.gen(function* () {
        for (const headers of [null, 42, "x-trace: 1", { "x-trace": "1" }, [["only-a-name"]], [[1, 2]]]) {
          const answer = yield* postRpc(getEpisode({ headers }))
          expect(answer.status, JSON.stringify(headers)).toBe(400)
          expect(answer.json, JSON.stringify(headers)).toEqual([
            {
              _tag: "Exit",
              requestId: "7",
              exit: {
                _tag: "Failure",
                cause: {
                  _tag: "Fail",
                  error: {
                    _tag: "BadRequest",
                    message: "Request: headers must be an array of [name, value] pairs of strings"
                  }
                }
              }
            }
          ])
        }
      })
    )

    it.effect("a message whose request cannot be told is a 400 Defect saying what is wrong", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [string, string]> = [
          [getEpisode({ id: "seven" }), "Request: id must be a string of decimal digits"],
          [getEpisode({ id: 7 }), "Request: id must be a string of decimal digits"],
          [JSON.stringify({ _tag: "Call" }), "_tag must be Request, Ack, Interrupt, Ping or Eof"],
          [JSON.stringify(null), "the body must be one RPC message, a JSON object"],
          [JSON.stringify([JSON.parse(getEpisode({}))]), "the body must be one RPC message, a JSON object"],
          [
            JSON.stringify({ _tag: "Interrupt", requestId: null }),
            "Interrupt: requestId must be a string of decimal digits"
          ]
        ]
        for (const [body, message] of cases) {
          const answer = yield* postRpc(body)
          expect(answer.status, body).toBe(400)
          expect(answer.json, body).toEqual([{ _tag: "Defect", defect: message }])
        }
      })
    )

    it.effect("a missing tag is a typed BadRequest; a well-formed message, traced or not, is answered", () =>
      Effect.gen(function* () {
        const missingTag = yield* postRpc(getEpisode({ tag: undefined }))
        expect(missingTag.status).toBe(400)
        expect(missingTag.json).toMatchObject([{ _tag: "Exit", requestId: "7", exit: { _tag: "Failure" } }])
        const one = yield* postRpc(getEpisode({}))
        expect(one.status).toBe(200)
        expect(one.json).toMatchObject([{ _tag: "Exit", requestId: "7", exit: { _tag: "Success" } }])
        const traced = yield* postRpc(
          getEpisode({ headers: [["x-note", "a"]], traceId: "t", spanId: "s", sampled: true })
        )
        expect(traced.json).toMatchObject([{ _tag: "Exit", requestId: "7", exit: { _tag: "Success" } }])
      })
    )

    it.effect("random envelopes never get a 5xx, always get RPC messages back, and log no defect", () =>
      Effect.gen(function* () {
        errorLines.length = 0
        const { url } = yield* ServerAddress
        const anything = fc.oneof(
          fc.constant(undefined),
          fc.jsonValue({ maxDepth: 2 }),
          fc.constantFrom(null, 0, -1, "", "7", "x", [], {}, [["a", "b"]], [["a"]], true)
        )
        // Mostly a well-formed request with one or two fields gone wrong, sometimes anything at all.
        const field = <A>(valid: fc.Arbitrary<A>) =>
          fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: anything })
        const message = fc.record(
          {
            _tag: field(
              fc.constantFrom("Request", "Request", "Request", "Ack", "Interrupt", "Ping", "Eof", "Exit")
            ),
            id: field(fc.constantFrom("1", "0", "18446744073709551616", "-1", "1e3")),
            requestId: field(fc.constantFrom("1", "x")),
            tag: field(fc.constantFrom("GetEpisode", "SearchEpisodes", "GetEpisode", "Nope", "")),
            payload: field(fc.constant({ slug: "1" })),
            headers: field(fc.constant([])),
            traceId: anything,
            spanId: anything,
            sampled: anything
          },
          { requiredKeys: ["_tag", "id", "tag", "payload", "headers"] }
        )
        const body = fc.oneof(
          { weight: 6, arbitrary: message },
          { weight: 1, arbitrary: fc.array(message, { maxLength: 2 }) },
          { weight: 1, arbitrary: anything }
        )
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(body, async (sent) => {
              const text = JSON.stringify(sent) ?? "null"
              const response = await fetch(`${url}/rpc`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: text
              })
              expect(response.status, text).toBeLessThan(500)
              const answer: unknown = await response.json()
              expect(Array.isArray(answer), text).toBe(true)
            }),
            { numRuns: 500 }
          )
        )
        expect(errorLines).toEqual([])
      })
    )
  })
})

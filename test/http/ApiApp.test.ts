// The shared HTTP layer renders every kind of failure of an HttpApi as the error envelope.
import * as Http from "node:http"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type ApiApp, layerApiApp, mountApiApp } from "../../src/http/ApiApp.js"
import { Conflict, errorDoc, internalErrorEnvelope, TooManyRequests } from "../../src/http/ApiError.js"
import { layerNodeServer, ServerAddress } from "../../src/http/NodeServer.js"
import { FastPaths, layerServerRegistries } from "../../src/http/ServerRegistries.js"

class Item extends Schema.Class<Item>("Item")({ id: Schema.Int, name: Schema.String }) {}

const Api = HttpApi.make("fixture").add(
  HttpApiGroup.make("items")
    .add(
      HttpApiEndpoint.get("get", "/items/:id")
        .setPath(Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int()) }))
        .addSuccess(Item)
    )
    .add(
      HttpApiEndpoint.post("create", "/items").setPayload(Item).addSuccess(Item).addError(errorDoc(Conflict))
    )
    .add(HttpApiEndpoint.get("limited", "/limited").addError(errorDoc(TooManyRequests)))
    .add(HttpApiEndpoint.get("broken", "/broken"))
)

const Handlers = HttpApiBuilder.group(Api, "items", (handlers) =>
  handlers
    .handle("get", ({ path }) => Effect.succeed(new Item({ id: path.id, name: "one" })))
    .handle("create", ({ payload }) =>
      payload.id === 1 ? Effect.fail(new Conflict({ data: { id: 1 } })) : Effect.succeed(payload)
    )
    .handle("limited", () => Effect.fail(new TooManyRequests({ retryAfterSeconds: 7 })))
    .handle("broken", () => Effect.die(new Error("boom")))
)

class FixtureApp extends Context.Tag("FixtureApp")<FixtureApp, ApiApp>() {}

// A fast path with a bug: it throws instead of answering.
const BrokenFastPath = FastPaths.register((request) => {
  if (request.url === "/fast-broken") throw new Error("fast path bug")
  return false
})

const TestServer = layerNodeServer({
  host: "127.0.0.1",
  port: 0,
  maxBodyBytes: 1024,
  accessLog: false
}).pipe(
  Layer.provide([mountApiApp(FixtureApp, "/*"), BrokenFastPath]),
  Layer.provide(layerApiApp(FixtureApp, Api, Handlers)),
  Layer.provide([HttpLayerRouter.layer, layerServerRegistries, NodeHttpServer.layerContext])
)

const call = (path: string, init?: RequestInit) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(async () => {
      const response = await fetch(`${address.url}${path}`, init)
      const text = await response.text()
      return {
        status: response.status,
        headers: response.headers,
        body: text === "" ? null : JSON.parse(text)
      }
    })
  )

describe("the error envelope", () => {
  it.layer(TestServer)((it) => {
    it.effect("a success passes through untouched", () =>
      Effect.gen(function* () {
        const response = yield* call("/items/3")
        expect(response.status).toBe(200)
        expect(response.body).toEqual({ id: 3, name: "one" })
      })
    )

    it.effect("an undecodable path parameter is 400 BAD_REQUEST naming the field", () =>
      Effect.gen(function* () {
        const response = yield* call("/items/abc")
        expect(response.status).toBe(400)
        expect(response.body).toMatchObject({ defined: true, code: "BAD_REQUEST", status: 400 })
        expect(response.body.message).toContain("id")
      })
    )

    it.effect("malformed JSON is 400 in the envelope", () =>
      Effect.gen(function* () {
        const response = yield* call("/items", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{nope"
        })
        expect(response.status).toBe(400)
        expect(response.body).toEqual({
          defined: true,
          code: "BAD_REQUEST",
          status: 400,
          message: "The request body is not valid JSON."
        })
      })
    )

    it.effect("a body over the limit is 413", () =>
      Effect.gen(function* () {
        const response = yield* call("/items", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id: 2, name: "x".repeat(5000) })
        })
        expect(response.status).toBe(413)
        expect(response.body).toMatchObject({ code: "PAYLOAD_TOO_LARGE" })
      })
    )

    it.effect("a body over the limit without a declared length is 413 too, not a reset", () =>
      Effect.gen(function* () {
        const { port } = yield* ServerAddress
        const answer = yield* Effect.promise(
          () =>
            new Promise<{ status: number; body: string }>((resolve, reject) => {
              const request = Http.request(
                {
                  host: "127.0.0.1",
                  port,
                  method: "POST",
                  path: "/items",
                  headers: { "content-type": "application/json" }
                },
                (response) => {
                  let body = ""
                  response.on("data", (chunk: Buffer) => {
                    body += chunk.toString()
                  })
                  response.on("end", () => resolve({ status: response.statusCode ?? 0, body }))
                }
              )
              request.on("error", reject)
              // Written in pieces with no Content-Length: node frames it as chunked.
              request.write(`{"id":2,"name":"${"x".repeat(3000)}`)
              request.write("x".repeat(3000))
              request.end('"}')
            })
        )
        expect(answer.status).toBe(413)
        expect(JSON.parse(answer.body)).toMatchObject({
          defined: true,
          code: "PAYLOAD_TOO_LARGE",
          status: 413
        })
        expect((yield* call("/items/3")).status).toBe(200)
      })
    )

    it.effect("a contract error keeps its status, code and data", () =>
      Effect.gen(function* () {
        const response = yield* call("/items", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id: 1, name: "dup" })
        })
        expect(response.status).toBe(409)
        expect(response.body).toEqual({
          defined: true,
          code: "CONFLICT",
          status: 409,
          message: "This resource changed. Refresh and try again.",
          data: { id: 1 }
        })
      })
    )

    it.effect("429 carries Retry-After", () =>
      Effect.gen(function* () {
        const response = yield* call("/limited")
        expect(response.status).toBe(429)
        expect(response.headers.get("retry-after")).toBe("7")
        expect(response.body).toMatchObject({ code: "TOO_MANY_REQUESTS", status: 429 })
      })
    )

    it.effect("an unknown route is 404 in the envelope", () =>
      Effect.gen(function* () {
        const response = yield* call("/nowhere")
        expect(response.status).toBe(404)
        expect(response.body).toMatchObject({ defined: true, code: "NOT_FOUND", status: 404 })
      })
    )

    it.effect("a wrong method on a known route is 405 with Allow", () =>
      Effect.gen(function* () {
        const response = yield* call("/items/3", { method: "DELETE" })
        expect(response.status).toBe(405)
        expect(response.headers.get("allow")).toBe("GET, HEAD")
        expect(response.body).toMatchObject({ defined: true, code: "METHOD_NOT_ALLOWED", status: 405 })
      })
    )

    it.effect("a fast path that throws answers the 500 envelope and the server goes on", () =>
      Effect.gen(function* () {
        const response = yield* call("/fast-broken")
        expect(response.status).toBe(500)
        expect(response.body).toEqual(internalErrorEnvelope)
        expect((yield* call("/items/3")).status).toBe(200)
      })
    )

    it.effect("a defect is 500 with defined false and no internals", () =>
      Effect.gen(function* () {
        const response = yield* call("/broken")
        expect(response.status).toBe(500)
        expect(response.body).toEqual(internalErrorEnvelope)
      })
    )
  })
})

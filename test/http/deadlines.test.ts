// No request waits without a deadline, and node's own answers come in the envelope: headers and
// bodies that never finish arriving are 408, a handler that runs too long is 503, a streamed body
// ends at its bound; a missing Host is 400, an Expect other than 100-continue 417, oversized headers
// 431; 100-continue is sent only when the headers pass; a route may declare that it reads forms.
import * as Net from "node:net"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type ApiApp, layerApiApp, mountApiApp } from "../../src/http/ApiApp.js"
import { BodyMediaTypes } from "../../src/http/BodyMediaType.js"
import { layerNodeServer, ServerAddress } from "../../src/http/NodeServer.js"
import { layerServerRegistries } from "../../src/http/ServerRegistries.js"

class Note extends Schema.Class<Note>("Note")({ text: Schema.String }) {}

const Api = HttpApi.make("fixture").add(
  HttpApiGroup.make("timing")
    .add(HttpApiEndpoint.get("slow", "/slow").addSuccess(Note))
    .add(HttpApiEndpoint.get("ticks", "/ticks"))
    .add(HttpApiEndpoint.post("echo", "/echo").setPayload(Note).addSuccess(Note))
    .add(
      HttpApiEndpoint.post("form", "/form")
        .setPayload(Note)
        .addSuccess(Note)
        .annotate(BodyMediaTypes, ["form", "json"])
    )
)

const Handlers = HttpApiBuilder.group(Api, "timing", (handlers) =>
  handlers
    .handle("slow", () => Effect.as(Effect.sleep("10 seconds"), new Note({ text: "late" })))
    .handle("ticks", () =>
      Effect.succeed(
        HttpServerResponse.stream(
          Stream.fromSchedule(Schedule.spaced("50 millis")).pipe(
            Stream.map((n) => `data: ${n}\n\n`),
            Stream.encodeText
          ),
          { contentType: "text/event-stream" }
        )
      )
    )
    .handle("echo", ({ payload }) => Effect.succeed(payload))
    .handle("form", ({ payload }) => Effect.succeed(payload))
)

class FixtureApp extends Context.Tag("FixtureApp")<FixtureApp, ApiApp>() {}

const TestServer = layerNodeServer({
  host: "127.0.0.1",
  port: 0,
  maxBodyBytes: 1024,
  accessLog: false,
  headersTimeoutMs: 500,
  requestTimeoutMs: 800,
  handlerTimeoutMs: 400,
  streamTimeoutMs: 600,
  shutdownGraceMs: 1000
}).pipe(
  Layer.provide(mountApiApp(FixtureApp, "/*")),
  Layer.provide(layerApiApp(FixtureApp, Api, Handlers)),
  Layer.provide([HttpLayerRouter.layer, layerServerRegistries, NodeHttpServer.layerContext])
)

interface RawAnswer {
  /** Everything the server wrote before it closed the connection (or before `waitMs`). */
  readonly text: string
  readonly closed: boolean
  readonly ms: number
}

/** Writes `parts` to a new connection (each after its delay) and reads until it closes or `waitMs`. */
const raw = (parts: ReadonlyArray<readonly [delayMs: number, text: string]>, waitMs = 3000) =>
  Effect.flatMap(ServerAddress, ({ port }) =>
    Effect.promise(
      () =>
        new Promise<RawAnswer>((resolve) => {
          const started = performance.now()
          const socket = Net.connect(port, "127.0.0.1")
          let text = ""
          const finish = (closed: boolean) => {
            clearTimeout(timer)
            socket.destroy()
            resolve({ text, closed, ms: performance.now() - started })
          }
          const timer = setTimeout(() => finish(false), waitMs)
          socket.on("data", (chunk) => {
            text += chunk.toString("latin1")
          })
          socket.on("close", () => finish(true))
          socket.on("error", () => {})
          let at = 0
          for (const [delay, part] of parts) {
            at += delay
            setTimeout(() => socket.writable && socket.write(part), at)
          }
        })
    )
  )

const statusOf = (answer: RawAnswer) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer.text)?.[1] ?? 0)
const bodyOf = (answer: RawAnswer): unknown => {
  const body = answer.text.slice(answer.text.lastIndexOf("\r\n\r\n") + 4)
  return body === "" ? null : JSON.parse(body)
}

describe("the server's deadlines", () => {
  // The live clock: the deadlines are measured in real time.
  layer(TestServer, { excludeTestServices: true })((it) => {
    it.effect("headers that never finish arriving are 408 in the envelope, and the connection closes", () =>
      Effect.gen(function* () {
        const answer = yield* raw([[0, "GET /slow HTTP/1.1\r\nHost: x\r\n"]])
        expect(answer.closed).toBe(true)
        expect(statusOf(answer)).toBe(408)
        expect(bodyOf(answer)).toMatchObject({ defined: true, code: "REQUEST_TIMEOUT", status: 408 })
        expect(answer.ms).toBeLessThan(2500)
      })
    )

    it.effect("a body that stops arriving is 408 once the request timeout passes", () =>
      Effect.gen(function* () {
        const answer = yield* raw([
          [
            0,
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n"
          ],
          [0, '{"text":']
        ])
        expect(answer.closed).toBe(true)
        expect(statusOf(answer)).toBe(408)
        expect(bodyOf(answer)).toMatchObject({ code: "REQUEST_TIMEOUT" })
      })
    )

    it.effect("a handler that outlives its deadline is answered 503 with Retry-After", () =>
      Effect.gen(function* () {
        const answer = yield* raw([[0, "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]])
        expect(statusOf(answer)).toBe(503)
        expect(answer.text.toLowerCase()).toContain("retry-after: 1")
        expect(bodyOf(answer)).toMatchObject({ defined: true, code: "SERVICE_UNAVAILABLE", status: 503 })
        expect(answer.ms).toBeLessThan(2000)
      })
    )

    it.effect("a streamed body ends at its own bound, as a complete response", () =>
      Effect.gen(function* () {
        const answer = yield* raw([[0, "GET /ticks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]])
        expect(answer.closed).toBe(true)
        expect(statusOf(answer)).toBe(200)
        expect(answer.text).toContain("data: 1")
        // The chunked body's terminator: the stream ended, the connection was not cut.
        expect(answer.text.endsWith("0\r\n\r\n")).toBe(true)
        expect(answer.ms).toBeGreaterThan(500)
        expect(answer.ms).toBeLessThan(2500)
      })
    )

    it.effect("an HTTP/1.1 request without Host is 400 in the envelope", () =>
      Effect.gen(function* () {
        const answer = yield* raw([[0, "GET /slow HTTP/1.1\r\n\r\n"]])
        expect(statusOf(answer)).toBe(400)
        expect(bodyOf(answer)).toMatchObject({
          defined: true,
          code: "BAD_REQUEST",
          message: expect.stringContaining("Host")
        })
      })
    )

    it.effect("an Expect other than 100-continue is 417 in the envelope", () =>
      Effect.gen(function* () {
        const answer = yield* raw([
          [
            0,
            "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n"
          ],
          [50, '{"text":"hi"}']
        ])
        expect(statusOf(answer)).toBe(417)
        expect(bodyOf(answer)).toMatchObject({ defined: true, code: "EXPECTATION_FAILED", status: 417 })
      })
    )

    it.effect("headers larger than node accepts are 431 in the envelope", () =>
      Effect.gen(function* () {
        const answer = yield* raw([
          [0, `GET /slow HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`]
        ])
        expect(statusOf(answer)).toBe(431)
        expect(bodyOf(answer)).toMatchObject({ code: "REQUEST_HEADER_FIELDS_TOO_LARGE", status: 431 })
      })
    )

    it.effect("100-continue is sent only when the headers pass the body rules", () =>
      Effect.gen(function* () {
        const head = (type: string, length: number) =>
          `POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`
        const accepted = yield* raw([
          [0, head("application/json", 13)],
          [100, '{"text":"hi"}']
        ])
        expect(accepted.text.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200")).toBe(true)
        const tooLarge = yield* raw([[0, head("application/json", 5000)]])
        expect(tooLarge.text.startsWith("HTTP/1.1 413")).toBe(true)
        const wrongType = yield* raw([[0, head("text/plain", 13)]])
        expect(wrongType.text.startsWith("HTTP/1.1 400")).toBe(true)
      })
    )

    it.effect("a route that declares forms reads them, and JSON too; other routes refuse forms", () =>
      Effect.gen(function* () {
        const { url } = yield* ServerAddress
        const send = (path: string, type: string, body: string) =>
          Effect.promise(async () => {
            const response = await fetch(`${url}${path}`, {
              method: "POST",
              headers: { "content-type": type },
              body
            })
            return { status: response.status, json: (await response.json()) as unknown }
          })
        expect(yield* send("/form", "application/x-www-form-urlencoded", "text=a%20form")).toEqual({
          status: 200,
          json: { text: "a form" }
        })
        expect(yield* send("/form", "application/vnd.example+json", '{"text":"json"}')).toEqual({
          status: 200,
          json: { text: "json" }
        })
        const refused = yield* send("/echo", "application/x-www-form-urlencoded", "text=a")
        expect(refused.status).toBe(400)
        expect(refused.json).toMatchObject({ message: expect.stringContaining("application/json") })
      })
    )
  })
})

// The server's edge applies each route's one body limit before anything reads the body: declared
// lengths unread, chunked bodies while they arrive (the connection closed after the 413), and
// bodies within the limit reach their handler whole, whatever their framing. Bodies are JSON unless
// a route declares the media types it reads, and then its refusals take that route's own format.
import * as Http from "node:http"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type ApiApp, layerApiApp, mountApiApp } from "../../src/http/ApiApp.js"
import { MaxBodyBytes } from "../../src/http/BodyPolicy.js"
import { layerNodeServer, ServerAddress } from "../../src/http/NodeServer.js"
import { BodyRules, layerServerRegistries } from "../../src/http/ServerRegistries.js"

class Note extends Schema.Class<Note>("Note")({ text: Schema.String }) {}

const Api = HttpApi.make("fixture").add(
  HttpApiGroup.make("notes")
    .add(HttpApiEndpoint.post("echo", "/echo").setPayload(Note).addSuccess(Note))
    .add(
      HttpApiEndpoint.post("small", "/small").setPayload(Note).addSuccess(Note).annotate(MaxBodyBytes, 100)
    )
    // Declares more than the server allows: the server's limit is the lower one, so it applies.
    .add(
      HttpApiEndpoint.post("large", "/large")
        .setPayload(Note)
        .addSuccess(Note)
        .annotate(MaxBodyBytes, 1_000_000)
    )
)

const Handlers = HttpApiBuilder.group(Api, "notes", (handlers) =>
  handlers
    .handle("echo", ({ payload }) => Effect.succeed(payload))
    .handle("small", ({ payload }) => Effect.succeed(payload))
    .handle("large", ({ payload }) => Effect.succeed(payload))
)

class FixtureApp extends Context.Tag("FixtureApp")<FixtureApp, ApiApp>() {}

/** A route outside any HttpApi that reads forms and answers refusals in a format of its own. */
const FormRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    ;(yield* BodyRules).add([
      {
        method: "POST",
        path: "/form",
        maxBytes: 200,
        mediaTypes: ["form"],
        refusal: (error) => {
          const body = new TextEncoder().encode(JSON.stringify({ refused: error.message }))
          return {
            status: error._tag === "PayloadTooLarge" ? 413 : 400,
            headers: { "content-type": "application/json", "content-length": String(body.byteLength) },
            body
          }
        }
      }
    ])
    yield* router.add(
      "POST",
      "/form",
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.map(request.urlParamsBody, (params) =>
          HttpServerResponse.unsafeJson({ fields: params.length })
        )
      ).pipe(Effect.orDie)
    )
  })
)

const TestServer = layerNodeServer({
  host: "127.0.0.1",
  port: 0,
  maxBodyBytes: 1024,
  accessLog: false
}).pipe(
  Layer.provide(mountApiApp(FixtureApp, "/*")),
  Layer.provide(FormRoute),
  Layer.provide(layerApiApp(FixtureApp, Api, Handlers)),
  Layer.provide([HttpLayerRouter.layer, layerServerRegistries, NodeHttpServer.layerContext])
)

interface Answer {
  readonly status: number
  readonly connection: string | undefined
  readonly body: unknown
}

/** A POST with its length declared, or written in pieces without one (node then frames it as chunked). */
const post = (
  path: string,
  pieces: ReadonlyArray<string>,
  options: { declareLength: boolean; type?: string }
) =>
  Effect.flatMap(ServerAddress, ({ port }) =>
    Effect.promise(
      () =>
        new Promise<Answer>((resolve, reject) => {
          const length = pieces.reduce((total, piece) => total + Buffer.byteLength(piece), 0)
          const headers: Record<string, string> = { "content-type": options.type ?? "application/json" }
          if (options.declareLength) headers["content-length"] = String(length)
          const agent = new Http.Agent({ keepAlive: true })
          const sent = Http.request(
            { host: "127.0.0.1", port, method: "POST", path, headers, agent },
            (response) => {
              let text = ""
              response.on("data", (chunk: Buffer) => {
                text += chunk.toString()
              })
              response.on("end", () => {
                agent.destroy()
                resolve({
                  status: response.statusCode ?? 0,
                  connection: response.headers.connection,
                  body: text === "" ? null : JSON.parse(text)
                })
              })
            }
          )
          sent.on("error", reject)
          for (const piece of pieces) sent.write(piece)
          sent.end()
        })
    )
  )

const note = (size: number) => JSON.stringify({ text: "x".repeat(size) })
const inPieces = (text: string) => [text.slice(0, 10), text.slice(10, 60), text.slice(60)]

const tooLarge = (maxBytes: number) => ({
  defined: true,
  code: "PAYLOAD_TOO_LARGE",
  status: 413,
  message: `The request body is larger than ${maxBytes} bytes.`,
  data: { maxBytes }
})

describe("the body policy", () => {
  it.layer(TestServer)((it) => {
    it.effect(
      "an endpoint's own limit refuses a declared length before reading, keeping the connection",
      () =>
        Effect.gen(function* () {
          const refused = yield* post("/small", [note(150)], { declareLength: true })
          expect(refused.status).toBe(413)
          expect(refused.body).toEqual(tooLarge(100))
          expect(refused.connection).toBe("keep-alive")
          expect((yield* post("/small", [note(50)], { declareLength: true })).body).toEqual({
            text: "x".repeat(50)
          })
        })
    )

    it.effect("a chunked body over the endpoint's limit is 413 and the connection closes after it", () =>
      Effect.gen(function* () {
        const refused = yield* post("/small", inPieces(note(150)), { declareLength: false })
        expect(refused.status).toBe(413)
        expect(refused.body).toEqual(tooLarge(100))
        expect(refused.connection).toBe("close")
      })
    )

    it.effect("a chunked body within the limit reaches the handler whole", () =>
      Effect.gen(function* () {
        for (const path of ["/echo", "/small"]) {
          const answer = yield* post(path, inPieces(note(60)), { declareLength: false })
          expect(answer.status, path).toBe(200)
          expect(answer.body, path).toEqual({ text: "x".repeat(60) })
          expect(answer.connection, path).toBe("keep-alive")
        }
      })
    )

    it.effect("the server's limit applies where it is lower than the endpoint's", () =>
      Effect.gen(function* () {
        expect((yield* post("/large", [note(2000)], { declareLength: true })).body).toEqual(tooLarge(1024))
        expect((yield* post("/large", inPieces(note(2000)), { declareLength: false })).body).toEqual(
          tooLarge(1024)
        )
        expect((yield* post("/echo", inPieces(note(2000)), { declareLength: false })).body).toEqual(
          tooLarge(1024)
        )
      })
    )

    it.effect("a route that declares its media types reads them, and refuses others in its own format", () =>
      Effect.gen(function* () {
        const form = "a=1&b=2"
        const read = yield* post("/form", [form], {
          declareLength: true,
          type: "application/x-www-form-urlencoded"
        })
        expect(read).toMatchObject({ status: 200, body: { fields: 2 } })
        const json = yield* post("/form", [note(10)], { declareLength: true })
        expect(json.status).toBe(400)
        expect(json.body).toEqual({
          refused: "Request bodies here must be application/x-www-form-urlencoded, not application/json."
        })
        const large = yield* post("/form", [`a=${"x".repeat(300)}`], {
          declareLength: true,
          type: "application/x-www-form-urlencoded"
        })
        expect(large).toMatchObject({
          status: 413,
          body: { refused: "The request body is larger than 200 bytes." }
        })
        // Every other route still reads JSON only, and refuses in the envelope.
        const elsewhere = yield* post("/echo", [form], {
          declareLength: true,
          type: "application/x-www-form-urlencoded"
        })
        expect(elsewhere.status).toBe(400)
        expect(elsewhere.body).toMatchObject({ defined: true, code: "BAD_REQUEST" })
      })
    )

    it.effect("a media type without a body is ignored: the empty payload is the 400", () =>
      Effect.gen(function* () {
        for (const type of ["multipart/form-data; boundary=x", "text/plain"]) {
          const answer = yield* post("/echo", [], { declareLength: true, type })
          expect(answer.status, type).toBe(400)
          expect(answer.body, type).toMatchObject({ defined: true, code: "BAD_REQUEST" })
          expect(answer.connection, type).toBe("keep-alive")
        }
      })
    )
  })
})

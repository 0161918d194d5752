// Writes a prepared response's answer, either as an Effect platform response (HttpApi handlers) or
// straight onto a node response (the fast path). Both go through `answer`, so both apply the same
// negotiation and conditional rules and send the same bytes and headers.
import type * as Http from "node:http"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { NotAcceptable } from "./ApiError.js"
import { answerResponse, errorAnswer, writeAnswer } from "./ErrorAnswer.js"
import { answer, type PreparedResponse } from "./PreparedResponse.js"

const notAcceptable = new NotAcceptable({
  message: "None of the content codings you accept is available; accept identity."
})

/** The 406, with the `Vary` that explains it: the same answer for both kinds of response. */
const notAcceptableAnswer = (headers: Readonly<Record<string, string>>) => errorAnswer(notAcceptable, headers)

const header = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  Array.isArray(value) ? value.join(", ") : (value as string | undefined)

export const respondPrepared = (
  prepared: PreparedResponse
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const result = answer(prepared, {
      acceptEncoding: header(request.headers["accept-encoding"]),
      ifNoneMatch: header(request.headers["if-none-match"])
    })
    if (result.status === 406) return Effect.succeed(answerResponse(notAcceptableAnswer(result.headers)))
    if (result.variant === undefined)
      return Effect.succeed(HttpServerResponse.empty({ status: result.status, headers: result.headers }))
    return Effect.succeed(
      HttpServerResponse.uint8Array(result.variant.body, {
        status: result.status,
        headers: result.headers,
        contentType: prepared.contentType
      })
    )
  })

/** Writes the answer to a node response; HEAD gets the headers of the GET and no body. */
export const writePrepared = (
  prepared: PreparedResponse,
  request: Http.IncomingMessage,
  response: Http.ServerResponse
): void => {
  const result = answer(prepared, {
    acceptEncoding: header(request.headers["accept-encoding"]),
    ifNoneMatch: header(request.headers["if-none-match"])
  })
  if (result.status === 406) {
    writeAnswer(notAcceptableAnswer(result.headers), request, response)
    return
  }
  response.writeHead(result.status, result.fullHeaders)
  response.end(result.variant === undefined || request.method === "HEAD" ? undefined : result.variant.body)
}

// The one error writer: an error becomes its status, headers and body bytes once, here, and the
// same answer is then applied to a node `ServerResponse` (fast paths, the server's edge) or turned
// into an Effect response (handlers, routing failures), so both kinds carry identical bytes.
import type * as Http from "node:http"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type ApiError, type ErrorEnvelope, errorHeaders, toEnvelope } from "./ApiError.js"

export interface ErrorAnswer {
  readonly status: number
  /** Every header of the answer, Content-Type and Content-Length included. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

const contentType = "application/json"
const encoder = new TextEncoder()

/** The answer carrying `envelope`, with `headers` besides the ones every error carries. */
export const envelopeAnswer = (
  envelope: ErrorEnvelope,
  headers: Readonly<Record<string, string>> = {}
): ErrorAnswer => {
  const body = encoder.encode(JSON.stringify(envelope))
  return {
    status: envelope.status,
    headers: {
      ...headers,
      "content-type": contentType,
      "content-length": String(body.byteLength),
      "cache-control": "no-store"
    },
    body
  }
}

/** The answer for a contract error; `extraHeaders` (e.g. `Vary`, `Connection`) are added to it. */
export const errorAnswer = (
  error: ApiError,
  extraHeaders: Readonly<Record<string, string>> = {}
): ErrorAnswer => envelopeAnswer(toEnvelope(error), { ...errorHeaders(error), ...extraHeaders })

/** Writes an answer onto a node response; an answer to HEAD has the headers and no body. */
export const writeAnswer = (
  answer: ErrorAnswer,
  request: Http.IncomingMessage,
  response: Http.ServerResponse
): void => {
  response.writeHead(answer.status, answer.headers)
  response.end(request.method === "HEAD" ? undefined : answer.body)
}

/** The same answer as an Effect response (the platform leaves out the body of an answer to HEAD). */
export const answerResponse = (answer: ErrorAnswer): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(answer.body, { status: answer.status, headers: answer.headers, contentType })

/** A contract error written onto a node response. */
export const writeError = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  error: ApiError,
  extraHeaders?: Readonly<Record<string, string>>
): void => writeAnswer(errorAnswer(error, extraHeaders), request, response)

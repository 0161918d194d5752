// Writes a contract error onto a plain node response, for the code that answers before the Effect
// runtime is involved (fast paths, body-size refusal). Same envelope and headers as ErrorResponse.
import type * as Http from "node:http"
import { type ApiError, type ErrorEnvelope, errorHeaders, toEnvelope } from "./ApiError.js"

export const writeNodeError = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  error: ApiError,
  extraHeaders: Readonly<Record<string, string>> = {}
): void => {
  writeNodeEnvelope(request, response, toEnvelope(error), { ...extraHeaders, ...errorHeaders(error) })
}

/** Writes an envelope as it is (contract errors go through `writeNodeError`). */
export const writeNodeEnvelope = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  envelope: ErrorEnvelope,
  extraHeaders: Readonly<Record<string, string>> = {}
): void => {
  const body = JSON.stringify(envelope)
  response.writeHead(envelope.status, {
    ...extraHeaders,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store"
  })
  response.end(request.method === "HEAD" ? undefined : body)
}

// Writes a contract error onto a plain node response, for the code that answers before the Effect
// runtime is involved (fast paths, body-size refusal). Same envelope and headers as ErrorResponse.
import type * as Http from "node:http"
import { type ApiError, toEnvelope } from "./ApiError.js"

export const writeNodeError = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse,
  error: ApiError,
  extraHeaders: Readonly<Record<string, string>> = {}
): void => {
  const envelope = toEnvelope(error)
  const body = JSON.stringify(envelope)
  const headers: Record<string, string | number> = {
    ...extraHeaders,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store"
  }
  if (error._tag === "TooManyRequests" || error._tag === "ServiceUnavailable") {
    headers["retry-after"] = String(error.retryAfterSeconds)
  }
  if (error._tag === "MethodNotAllowed") headers.allow = error.allow.join(", ")
  response.writeHead(envelope.status, headers)
  response.end(request.method === "HEAD" ? undefined : body)
}

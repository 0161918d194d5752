// The answers of the OAuth endpoints in OAuth's own format (RFC 6749 §5.1 and §5.2): JSON bodies
// `{ error, error_description }` rather than the envelope, never cached, and readable by apps in
// browsers (`Access-Control-Allow-Origin: *`: these endpoints take no cookie, so no other site can
// act with a person's credentials through them). Also the redirects back to a client.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type ApiError, toEnvelope } from "../../http/ApiError.js"
import type { ErrorAnswer } from "../../http/ErrorAnswer.js"
import { errorCodes, type OAuthProtocolError } from "./OAuthErrors.js"

/** Headers of every OAuth JSON answer. */
export const oauthHeaders: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  pragma: "no-cache",
  "access-control-allow-origin": "*",
  "x-content-type-options": "nosniff"
}

const encoder = new TextEncoder()

/** `{ error, error_description }` with `status` and `headers`, as bytes (the edge writes these too). */
export const oauthErrorAnswer = (
  status: number,
  error: string,
  description: string,
  headers: Readonly<Record<string, string>> = {}
): ErrorAnswer => {
  const body = encoder.encode(JSON.stringify({ error, error_description: description }))
  return {
    status,
    headers: {
      ...oauthHeaders,
      ...headers,
      "content-type": "application/json",
      "content-length": String(body.byteLength)
    },
    body
  }
}

const toResponse = (answer: ErrorAnswer) =>
  HttpServerResponse.uint8Array(answer.body, {
    status: answer.status,
    headers: answer.headers,
    contentType: "application/json"
  })

/** A protocol failure: 401 for an unauthenticated client (with a Basic challenge when it used Basic), 400 otherwise. */
export const protocolErrorResponse = (failure: OAuthProtocolError) =>
  toResponse(
    failure._tag === "InvalidClient"
      ? oauthErrorAnswer(
          401,
          errorCodes.InvalidClient,
          failure.description,
          failure.usedBasic ? { "www-authenticate": 'Basic realm="oauth", charset="UTF-8"' } : {}
        )
      : oauthErrorAnswer(400, errorCodes[failure._tag], failure.description)
  )

/** Over a rate limit (RFC 6749 has no code for it; `too_many_requests` is what MCP clients know). */
export const tooManyRequestsResponse = (retryAfterSeconds: number) =>
  toResponse(
    oauthErrorAnswer(429, "too_many_requests", "Too many requests; wait before trying again.", {
      "retry-after": String(retryAfterSeconds)
    })
  )

/** The database cannot answer now (RFC 6749's `temporarily_unavailable`). */
export const unavailableResponse = (retryAfterSeconds: number) =>
  toResponse(
    oauthErrorAnswer(503, "temporarily_unavailable", "The service is temporarily unavailable.", {
      "retry-after": String(retryAfterSeconds)
    })
  )

/** A failure nobody expected (logged by the caller, with no internals in the answer). */
export const serverErrorResponse = () =>
  toResponse(oauthErrorAnswer(500, "server_error", "An unexpected error occurred."))

export const methodNotAllowedResponse = (allow: ReadonlyArray<string>) =>
  toResponse(
    oauthErrorAnswer(405, "invalid_request", `This endpoint takes ${allow.join(" and ")}.`, {
      allow: allow.join(", ")
    })
  )

/** The edge's refusal of a body (wrong media type, too large), in OAuth's format. */
export const oauthRefusal = (error: ApiError): ErrorAnswer =>
  oauthErrorAnswer(toEnvelope(error).status, "invalid_request", error.message)

/** A JSON success (the metadata documents, tokens, registrations). */
export const oauthJson = (body: unknown, status = 200, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers: { ...oauthHeaders, ...headers } })

/** A public JSON document (metadata): cacheable for a while, readable from any origin. */
export const publicJson = (body: unknown) =>
  HttpServerResponse.unsafeJson(body, {
    headers: {
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff"
    }
  })

/** The CORS preflight of the JSON endpoints that apps in browsers call. */
export const preflightResponse = (methods: ReadonlyArray<string>) =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": methods.join(", "),
      "access-control-allow-headers": "authorization, content-type",
      "access-control-max-age": "600"
    }
  })

/** `uri` with `params` added to its query (an authorization response, RFC 6749 §4.1.2). */
export const withQuery = (uri: string, params: ReadonlyArray<readonly [string, string]>): string => {
  const url = new URL(uri)
  for (const [name, value] of params) url.searchParams.append(name, value)
  return url.href
}

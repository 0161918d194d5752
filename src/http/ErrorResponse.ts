// Renders any failure of a request (contract errors, routing misses, undecodable input, defects) as
// the one error envelope, so no empty or framework-shaped error body escapes. The answer itself is
// written by ErrorAnswer.ts, the same for Effect and node responses.
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpServerError from "@effect/platform/HttpServerError"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import {
  type ApiError,
  BadRequest,
  internalErrorEnvelope,
  isApiError,
  MethodNotAllowed,
  NotFound
} from "./ApiError.js"
import { answerResponse, envelopeAnswer, errorAnswer } from "./ErrorAnswer.js"
import type { RouteTable } from "./RouteTable.js"

/** The HTTP response for a contract error, with the headers its fields call for. */
export const errorResponse = (
  error: ApiError,
  extraHeaders?: Readonly<Record<string, string>>
): HttpServerResponse.HttpServerResponse => answerResponse(errorAnswer(error, extraHeaders))

/** Turns schema issues into one readable sentence per field ("limit: Expected …"). */
const describeIssues = (issues: HttpApiError.HttpApiDecodeError["issues"]): string =>
  issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
    .join("; ")

/**
 * Optional fields decode as a union with `undefined`, so a bad value also reports "Expected
 * undefined"; that alternative says nothing useful when the field has a real complaint.
 */
const meaningfulIssues = (issues: HttpApiError.HttpApiDecodeError["issues"]) => {
  const key = (issue: (typeof issues)[number]) => issue.path.map(String).join(".")
  const real = new Set(issues.filter((issue) => !issue.message.startsWith("Expected undefined")).map(key))
  return issues.filter((issue) => !(issue.message.startsWith("Expected undefined") && real.has(key(issue))))
}

// Which side of a transformation failed is the schema's business, not the client's.
const schemaSides = / \((?:Encoded|Type) side\)/g

/** The issues worth telling a client, each with its path and a message free of schema internals. */
const readableIssues = (all: HttpApiError.HttpApiDecodeError["issues"]) =>
  meaningfulIssues(all).map((issue) => ({
    ...issue,
    message: issue.message.replace(schemaSides, "")
  }))

/** The issues of a failed decoding as `badRequestFromParseError` words them (MCP tools report them so). */
export const issuesOfParseError = (
  error: ParseResult.ParseError
): ReadonlyArray<{ readonly path: ReadonlyArray<string>; readonly message: string }> =>
  readableIssues(ParseResult.ArrayFormatter.formatErrorSync(error)).map((issue) => ({
    path: issue.path.map(String),
    message: issue.message
  }))

const badRequestFromIssues = (all: HttpApiError.HttpApiDecodeError["issues"]): BadRequest => {
  const issues = readableIssues(all)
  return new BadRequest({
    message: issues.length > 0 ? describeIssues(issues) : "The request could not be decoded.",
    data: { issues: issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) }
  })
}

const fromDecodeError = (error: HttpApiError.HttpApiDecodeError): BadRequest =>
  badRequestFromIssues(error.issues)

/** The 400 for input that failed a schema outside the HttpApi's own decoding (e.g. inside a batch). */
export const badRequestFromParseError = (error: ParseResult.ParseError): BadRequest =>
  badRequestFromIssues(ParseResult.ArrayFormatter.formatErrorSync(error))

/**
 * A body that cannot be read. (One over its size limit never gets here: the server's edge answers
 * 413 before the platform reads it; see BodyPolicy.ts.)
 */
const fromRequestError = (error: HttpServerError.RequestError): ApiError =>
  new BadRequest({
    message:
      error.reason === "Decode"
        ? "The request body is not valid JSON."
        : "The request body could not be read."
  })

const isDecodable = (path: string): boolean => {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

const fromRouteNotFound = (request: HttpServerRequest.HttpServerRequest, routes: RouteTable): ApiError => {
  // The router cannot match a path it cannot decode; that is the client's malformed URL, not a miss.
  if (!isDecodable(pathOf(request.url))) {
    return new BadRequest({ message: "The request path is not valid percent-encoding." })
  }
  const allow = routes.allowedMethods(request.url)
  return allow.length > 0
    ? new MethodNotAllowed({ message: `${request.method} is not allowed on this resource.`, allow })
    : new NotFound({ message: `No route for ${request.method} ${pathOf(request.url)}.` })
}

const pathOf = (url: string): string => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

/** Maps a known failure value to a contract error, or none when it is unexpected. */
export const toApiError = (failure: unknown, routes: RouteTable): Option.Option<ApiError> => {
  if (isApiError(failure)) return Option.some(failure)
  if (failure instanceof HttpApiError.HttpApiDecodeError) return Option.some(fromDecodeError(failure))
  if (HttpServerError.isServerError(failure)) {
    if (failure._tag === "RouteNotFound") return Option.some(fromRouteNotFound(failure.request, routes))
    if (failure._tag === "RequestError") return Option.some(fromRequestError(failure))
  }
  return Option.none()
}

/**
 * The response for a failed request. Contract errors render as themselves; a response used as a
 * defect is passed through (the platform's way to short-circuit); anything else is a defect, logged
 * with its cause and answered as a bare 500.
 */
export const causeResponse = (
  cause: Cause.Cause<unknown>,
  routes: RouteTable
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const known = toApiError(failure.value, routes)
    if (Option.isSome(known)) return Effect.succeed(errorResponse(known.value))
  }
  for (const defect of Cause.defects(cause)) {
    if (HttpServerResponse.isServerResponse(defect)) return Effect.succeed(defect)
    // The platform reads request bodies with `orDie`, so unreadable bodies arrive as defects.
    const known = toApiError(defect, routes)
    if (Option.isSome(known)) return Effect.succeed(errorResponse(known.value))
  }
  if (Cause.isInterruptedOnly(cause)) {
    // The client went away; nobody reads this answer, but the fiber still needs one.
    return Effect.succeed(HttpServerResponse.empty({ status: 499 }))
  }
  return Effect.as(
    Effect.logError("Unhandled failure while answering a request", cause),
    answerResponse(envelopeAnswer(internalErrorEnvelope))
  )
}

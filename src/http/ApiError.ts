// The one error envelope of both APIs: `{ defined, code, status, message, data? }`.
// Each failure a handler can report is a tagged error class; `ErrorResponse.ts` renders any of them
// (plus routing, decoding and defects) as the envelope, and `errorDoc` documents them in OpenAPI.
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"

/** The wire shape of every error body. */
export const ErrorEnvelope = Schema.Struct({
  defined: Schema.Boolean,
  code: Schema.String,
  status: Schema.Int,
  message: Schema.String,
  data: Schema.optional(Schema.Unknown)
})
export type ErrorEnvelope = typeof ErrorEnvelope.Type

const message = (fallback: string) => Schema.optionalWith(Schema.String, { default: () => fallback })
const data = Schema.optional(Schema.Unknown)

export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  message: message("Check the supplied values."),
  data
}) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  message: message("Sign in to continue."),
  data
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: message("You do not have access to this action."),
  data
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: message("The requested resource was not found."),
  data
}) {}

export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  message: message("This method is not allowed on this resource."),
  data,
  /** Methods the resource does accept, sent back in the `Allow` header. */
  allow: Schema.Array(Schema.String)
}) {}

export class NotAcceptable extends Schema.TaggedError<NotAcceptable>()("NotAcceptable", {
  message: message("None of the accepted media types can be produced."),
  data
}) {}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  message: message("This resource changed. Refresh and try again."),
  data
}) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: message("The request body is too large."),
  data
}) {}

/** The 413 for a body over `maxBytes`, saying the limit. */
export const bodyTooLarge = (maxBytes: number) =>
  new PayloadTooLarge({ message: `The request body is larger than ${maxBytes} bytes.`, data: { maxBytes } })

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", {
  message: message("Wait before trying again."),
  data,
  /** Whole seconds until a retry can succeed, sent back in `Retry-After`. */
  retryAfterSeconds: Schema.Int
}) {}

export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: message("The service is temporarily unavailable."),
  data,
  retryAfterSeconds: Schema.optionalWith(Schema.Int, { default: () => 5 })
}) {}

/** Every failure that is part of the contract (`defined: true`). */
export type ApiError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | MethodNotAllowed
  | NotAcceptable
  | Conflict
  | PayloadTooLarge
  | TooManyRequests
  | ServiceUnavailable

/** Status and code of each contract error, keyed by tag: the single table both APIs use. */
export const errorCodes = {
  BadRequest: { status: 400, code: "BAD_REQUEST" },
  Unauthorized: { status: 401, code: "UNAUTHORIZED" },
  Forbidden: { status: 403, code: "FORBIDDEN" },
  NotFound: { status: 404, code: "NOT_FOUND" },
  MethodNotAllowed: { status: 405, code: "METHOD_NOT_ALLOWED" },
  NotAcceptable: { status: 406, code: "NOT_ACCEPTABLE" },
  Conflict: { status: 409, code: "CONFLICT" },
  PayloadTooLarge: { status: 413, code: "PAYLOAD_TOO_LARGE" },
  TooManyRequests: { status: 429, code: "TOO_MANY_REQUESTS" },
  ServiceUnavailable: { status: 503, code: "SERVICE_UNAVAILABLE" }
} as const satisfies Record<ApiError["_tag"], { status: number; code: string }>

const apiErrorTags = new Set<string>(Object.keys(errorCodes))

export const isApiError = (u: unknown): u is ApiError =>
  typeof u === "object" && u !== null && "_tag" in u && apiErrorTags.has(String(u._tag))

/** The envelope for a contract error. */
export const toEnvelope = (error: ApiError): ErrorEnvelope => {
  const { status, code } = errorCodes[error._tag]
  return error.data === undefined
    ? { defined: true, code, status, message: error.message }
    : { defined: true, code, status, message: error.message, data: error.data }
}

/** The envelope of an unexpected failure: no internals, `defined: false`. */
export const internalErrorEnvelope: ErrorEnvelope = {
  defined: false,
  code: "INTERNAL_SERVER_ERROR",
  status: 500,
  message: "An unexpected error occurred."
}

/**
 * The OpenAPI description of one error class: its Type is the class (so handlers may fail with it)
 * and its encoded form is the envelope with the class's code and status. At run time the error
 * middleware renders failures before this schema is consulted; it exists so the document is exact.
 */
export const errorDoc = <E extends ApiError, I>(
  errorClass: Schema.Schema<E, I> & { readonly _tag: E["_tag"] }
) => {
  const tag: E["_tag"] = errorClass._tag
  const { status, code } = errorCodes[tag]
  const wire = Schema.Struct({
    defined: Schema.Literal(true),
    code: Schema.Literal(code),
    status: Schema.Literal(status),
    message: Schema.String,
    data: Schema.optional(Schema.Unknown)
  }).annotations({ identifier: `${tag}Error`, description: `${status} ${code}` })
  return Schema.transform(wire, errorClass, {
    strict: false,
    decode: (envelope) => ({ _tag: tag, message: envelope.message, data: envelope.data }),
    // Receives the class's encoded form, which carries the same `_tag`, `message` and `data`.
    encode: (encoded) => toEnvelope(encoded as unknown as ApiError)
  }).annotations(HttpApiSchema.annotations({ status }))
}

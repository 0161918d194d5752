// The one error envelope of both APIs: `{ defined, code, status, message, data? }`.
// A failure is part of the contract when its class is a tagged error annotated with its HTTP status
// (`HttpApiSchema.annotations({ status })`): the generic classes below, and the domain errors of
// each feature (e.g. the foundation's `Domain/Errors.ts`). `toEnvelope` renders any of them, with
// the code of its status from the table below; `ErrorResponse.ts` renders everything else
// (routing, decoding, defects), and `errorDoc` documents an error class in OpenAPI.
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"

/** The wire shape of every error body. */
export const ErrorEnvelope = Schema.Struct({
  defined: Schema.Boolean,
  code: Schema.String,
  status: Schema.Int,
  message: Schema.String,
  data: Schema.optional(Schema.Unknown)
})
export type ErrorEnvelope = typeof ErrorEnvelope.Type

/** The code of each status the contracts define: the single table both APIs use. */
export const statusCodes = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  408: "REQUEST_TIMEOUT",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  417: "EXPECTATION_FAILED",
  429: "TOO_MANY_REQUESTS",
  431: "REQUEST_HEADER_FIELDS_TOO_LARGE",
  503: "SERVICE_UNAVAILABLE"
} as const
export type ContractStatus = keyof typeof statusCodes

/**
 * A failure that is part of the contract (`defined: true`): a tagged error whose class carries a
 * status of the table above. Its `message` and `data` are the envelope's; `retryAfterSeconds`,
 * `allow` and `wwwAuthenticate`, when the error has them, become the `Retry-After`, `Allow` and
 * `WWW-Authenticate` headers.
 */
export interface ApiError {
  readonly _tag: string
  readonly message: string
  readonly data?: unknown
  /** Whole seconds until a retry can succeed, sent back in `Retry-After`. */
  readonly retryAfterSeconds?: number
  /** Methods the resource does accept, sent back in the `Allow` header. */
  readonly allow?: ReadonlyArray<string>
  /** How to authenticate (RFC 6750 §3, RFC 9728 §5.1), sent back in the `WWW-Authenticate` header. */
  readonly wwwAuthenticate?: string | undefined
}

const message = (fallback: string) => Schema.optionalWith(Schema.String, { default: () => fallback })
const data = Schema.optional(Schema.Unknown)

export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  { message: message("Check the supplied values."), data },
  HttpApiSchema.annotations({ status: 400 })
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { message: message("Sign in to continue."), data },
  HttpApiSchema.annotations({ status: 401 })
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { message: message("You do not have access to this action."), data },
  HttpApiSchema.annotations({ status: 403 })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { message: message("The requested resource was not found."), data },
  HttpApiSchema.annotations({ status: 404 })
) {}

export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "MethodNotAllowed",
  {
    message: message("This method is not allowed on this resource."),
    data,
    allow: Schema.Array(Schema.String)
  },
  HttpApiSchema.annotations({ status: 405 })
) {}

export class NotAcceptable extends Schema.TaggedError<NotAcceptable>()(
  "NotAcceptable",
  { message: message("None of the accepted media types can be produced."), data },
  HttpApiSchema.annotations({ status: 406 })
) {}

/** The request did not arrive in time (headers or body); written by the server's edge only. */
export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()(
  "RequestTimeout",
  { message: message("The request was not received in time."), data },
  HttpApiSchema.annotations({ status: 408 })
) {}

export class Conflict extends Schema.TaggedError<Conflict>()(
  "Conflict",
  { message: message("This resource changed. Refresh and try again."), data },
  HttpApiSchema.annotations({ status: 409 })
) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { message: message("The request body is too large."), data },
  HttpApiSchema.annotations({ status: 413 })
) {}

/** The 413 for a body over `maxBytes`, saying the limit. */
export const bodyTooLarge = (maxBytes: number) =>
  new PayloadTooLarge({ message: `The request body is larger than ${maxBytes} bytes.`, data: { maxBytes } })

/** An `Expect` header the server cannot meet (anything but `100-continue`). */
export class ExpectationFailed extends Schema.TaggedError<ExpectationFailed>()(
  "ExpectationFailed",
  { message: message("The Expect header cannot be met."), data },
  HttpApiSchema.annotations({ status: 417 })
) {}

/** Request headers larger than node accepts (`--max-http-header-size`, 16 KiB by default). */
export class HeaderFieldsTooLarge extends Schema.TaggedError<HeaderFieldsTooLarge>()(
  "HeaderFieldsTooLarge",
  { message: message("The request headers are too large."), data },
  HttpApiSchema.annotations({ status: 431 })
) {}

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  { message: message("Wait before trying again."), data, retryAfterSeconds: Schema.Int },
  HttpApiSchema.annotations({ status: 429 })
) {}

export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()(
  "ServiceUnavailable",
  {
    message: message("The service is temporarily unavailable."),
    data,
    retryAfterSeconds: Schema.optionalWith(Schema.Int, { default: () => 5 })
  },
  HttpApiSchema.annotations({ status: 503 })
) {}

const isContractStatus = (status: number): status is ContractStatus => Object.hasOwn(statusCodes, status)

/** The contract status annotated on a schema, if any. */
const annotatedStatus = (ast: AST.AST): ContractStatus | undefined => {
  const status = HttpApiSchema.getStatus(ast, 0)
  return isContractStatus(status) ? status : undefined
}

// Looked up once per error class: the fast paths render errors without walking a schema each time.
const statusByClass = new WeakMap<object, ContractStatus | undefined>()

const statusOf = (error: object): ContractStatus | undefined => {
  const errorClass: unknown = error.constructor
  if (typeof errorClass !== "function") return undefined
  if (statusByClass.has(errorClass)) return statusByClass.get(errorClass)
  const status = Schema.isSchema(errorClass) ? annotatedStatus(errorClass.ast) : undefined
  statusByClass.set(errorClass, status)
  return status
}

/**
 * True for a contract error. The framework's own decode error carries a status too, but its issues
 * are the client's to read: `ErrorResponse.ts` turns it into a `BadRequest` naming the fields.
 */
export const isApiError = (u: unknown): u is ApiError =>
  typeof u === "object" &&
  u !== null &&
  !(u instanceof HttpApiError.HttpApiDecodeError) &&
  "_tag" in u &&
  typeof u._tag === "string" &&
  "message" in u &&
  typeof u.message === "string" &&
  statusOf(u) !== undefined

/** The envelope of an unexpected failure: no internals, `defined: false`. */
export const internalErrorEnvelope: ErrorEnvelope = {
  defined: false,
  code: "INTERNAL_SERVER_ERROR",
  status: 500,
  message: "An unexpected error occurred."
}

/**
 * The envelope for a contract error. A value without a contract status is not one (a defect that
 * reached a writer directly): it gets the 500 envelope, which reveals nothing of it.
 */
export const toEnvelope = (error: ApiError): ErrorEnvelope => {
  const status = statusOf(error)
  if (status === undefined) return internalErrorEnvelope
  const code = statusCodes[status]
  const data = error.data
  return data === undefined
    ? { defined: true, code, status, message: error.message }
    : { defined: true, code, status, message: error.message, data }
}

/** The headers an error's own fields call for: `Retry-After`, `Allow` and `WWW-Authenticate`. */
export const errorHeaders = (error: ApiError): Record<string, string> => {
  const headers: Record<string, string> = {}
  if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds)
  if (error.allow !== undefined) headers.allow = error.allow.join(", ")
  if (error.wwwAuthenticate !== undefined) headers["www-authenticate"] = error.wwwAuthenticate
  return headers
}

/** `NOT_FOUND` → `NotFound`: the name the envelope of a status has in OpenAPI components. */
const componentName = (code: string) =>
  code
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")

/**
 * The OpenAPI description of one error class: its Type is the class (so handlers may fail with it)
 * and its encoded form is the envelope with the code and status of the class's annotation. Every
 * class with one status shares one component (`NotFoundError`, …): the envelope is all a client
 * sees. At run time the error middleware renders failures before this schema is consulted; it
 * exists so the document is exact.
 */
export const errorDoc = <E extends ApiError, I>(
  errorClass: Schema.Schema<E, I> & { readonly _tag: E["_tag"] }
) => {
  const tag: E["_tag"] = errorClass._tag
  const status = annotatedStatus(errorClass.ast)
  if (status === undefined) {
    throw new Error(`${tag} needs an HttpApiSchema status annotation that the contract defines`)
  }
  const code = statusCodes[status]
  const wire = Schema.Struct({
    defined: Schema.Literal(true),
    code: Schema.Literal(code),
    status: Schema.Literal(status),
    message: Schema.String,
    data: Schema.optional(Schema.Unknown)
  }).annotations({ identifier: `${componentName(code)}Error`, description: `${status} ${code}` })
  return Schema.transformOrFail(wire, errorClass, {
    strict: false,
    // A client can rebuild the class only from what the envelope carries.
    decode: (envelope) => ParseResult.succeed({ _tag: tag, message: envelope.message, data: envelope.data }),
    // Receives the class's encoded form; the envelope is read from the instance it stands for.
    encode: (encoded) => ParseResult.map(ParseResult.decodeUnknown(errorClass)(encoded), toEnvelope)
  }).annotations(HttpApiSchema.annotations({ status }))
}

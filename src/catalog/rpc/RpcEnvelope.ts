// The RPC messages a client may POST to /rpc, checked before RpcServer reads them: RpcServer trusts
// their shape and fails deep inside with a defect (`headers: null` was a 500, "….for is not
// iterable"; a non-numeric id a SyntaxError). A message out of shape is answered 400 in RPC's own
// form: an `Exit` failing with a typed BadRequest when it names a usable request id (so the client
// can match it), a `Defect` otherwise. Payloads are not judged here: each procedure decodes its own
// (CatalogRpcServer.ts).
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Schema from "effect/Schema"
import { BadRequest } from "../../http/ApiError.js"

/** What is wrong with one message, and the request it belongs to when that can be told. */
export interface EnvelopeProblem {
  readonly requestId: string | undefined
  readonly message: string
}

/** RpcServer turns request ids into bigints. */
const requestIdPattern = /^\d{1,19}$/

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isHeaderPair = (value: unknown) =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string"

const optional = (message: Readonly<Record<string, unknown>>, field: string, type: "string" | "boolean") =>
  message[field] === undefined || typeof message[field] === type

const requestProblem = (message: Readonly<Record<string, unknown>>): string | undefined => {
  if (typeof message.id !== "string" || !requestIdPattern.test(message.id))
    return "id must be a string of decimal digits"
  if (typeof message.tag !== "string" || message.tag === "") return "tag must name a procedure"
  if (!Array.isArray(message.headers) || !message.headers.every(isHeaderPair))
    return "headers must be an array of [name, value] pairs of strings"
  if (!optional(message, "traceId", "string") || !optional(message, "spanId", "string"))
    return "traceId and spanId must be strings"
  if (!optional(message, "sampled", "boolean")) return "sampled must be a boolean"
  return undefined
}

const messageProblem = (message: unknown): EnvelopeProblem | undefined => {
  if (!isRecord(message))
    return { requestId: undefined, message: "the body must be one RPC message, a JSON object" }
  switch (message._tag) {
    case "Request": {
      const problem = requestProblem(message)
      const id = typeof message.id === "string" && requestIdPattern.test(message.id) ? message.id : undefined
      return problem === undefined ? undefined : { requestId: id, message: `Request: ${problem}` }
    }
    case "Ack":
    case "Interrupt":
      return typeof message.requestId === "string" && requestIdPattern.test(message.requestId)
        ? undefined
        : { requestId: undefined, message: `${message._tag}: requestId must be a string of decimal digits` }
    case "Ping":
    case "Eof":
      return undefined
    default:
      return {
        requestId: undefined,
        message: "_tag must be Request, Ack, Interrupt, Ping or Eof"
      }
  }
}

/** The problem of a parsed body, if any. With JSON serialization a body is exactly one message. */
export const envelopeProblem = (body: unknown): EnvelopeProblem | undefined => messageProblem(body)

const encodeBadRequest = Schema.encodeSync(BadRequest)

/** The 400 answering `problem`: an array of one RPC message, as every answer of /rpc is. */
export const envelopeRefusal = ({ requestId, message }: EnvelopeProblem) =>
  HttpServerResponse.unsafeJson(
    [
      requestId === undefined
        ? { _tag: "Defect", defect: message }
        : {
            _tag: "Exit",
            requestId,
            exit: {
              _tag: "Failure",
              cause: { _tag: "Fail", error: encodeBadRequest(new BadRequest({ message })) }
            }
          }
    ],
    { status: 400 }
  )

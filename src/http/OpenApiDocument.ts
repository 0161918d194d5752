// Fixes applied to the OpenAPI documents the platform derives from our HttpApis, so that each is
// the exact contract: OpenAPI 3.1.1, our envelope instead of the framework's decode error (which the
// error middleware never lets out), the statuses the server's edge answers for every operation
// (405 with Allow, 413 for bodies, 500), parameters the OpenAPI path syntax cannot express, the
// conditional-request headers of cached GETs, and plain names for the platform's built-in schemas.
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { internalErrorEnvelope } from "./ApiError.js"

type Json = Record<string, unknown>

/**
 * A schema's title and description as the documents (and every other JSON Schema made from it)
 * show them. They go into the `jsonSchema` annotation, next to what the schema's last filter
 * already puts there (its bounds), and leave the schema's own description alone: validation
 * messages quote that one, and those are wire text clients may already match on.
 */
export const documented =
  (title: string, description: string) =>
  <S extends Schema.Annotable.All>(self: S): Schema.Annotable.Self<S> => {
    const own = AST.getJSONSchemaAnnotation(self.ast)
    return Schema.annotations<S>({
      jsonSchema: { ...(Option.isSome(own) ? own.value : {}), title, description }
    })(self)
  }

/** How the documents state a length: "8 to 128 characters", "at most 254 characters". */
export const characters = (minimum: number, maximum: number): string =>
  minimum > 0 ? `${minimum} to ${maximum} characters` : `at most ${maximum} characters`

/** The license both documents state: the repository's own (package.json). */
export const serviceLicense = { name: "MIT", url: "https://opensource.org/license/mit" } as const

export interface RefineOptions {
  /** Router wildcard paths and the OpenAPI template that documents them, e.g. `/a/*` → `/a/{path}`. */
  readonly wildcardPaths?: Readonly<Record<string, string>>
  /** Document ETag, Cache-Control, Vary, If-None-Match and 304 on every GET. */
  readonly cachedGets?: boolean
}

const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)
const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const badRequestRef = "#/components/schemas/BadRequestError"
const internalErrorName = "InternalServerError"
const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

/** The 400 response with the framework's decode error replaced by (or merged into) our envelope. */
const fixBadRequest = (response: Json): Json => {
  const content = isJson(response.content) ? response.content : {}
  const media = isJson(content["application/json"]) ? content["application/json"] : {}
  const schema = isJson(media.schema) ? media.schema : {}
  const options = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
  const kept = options.filter((option) => !(isJson(option) && option.$ref === decodeErrorRef))
  const ours = kept.length === 0 ? [{ $ref: badRequestRef }] : kept
  return {
    description:
      "BAD_REQUEST: a parameter or the body does not match the contract, or the request is not valid HTTP",
    content: { "application/json": { schema: ours.length === 1 ? ours[0] : { anyOf: ours } } }
  }
}

/**
 * `anyOf` lists the same error twice when two levels declare it (the API and one endpoint, a
 * middleware and its endpoint); Redocly rightly calls that ambiguous.
 */
const withoutDuplicateAlternatives = (response: unknown): unknown => {
  if (!isJson(response) || !isJson(response.content)) return response
  const media = response.content["application/json"]
  if (!isJson(media) || !isJson(media.schema) || !Array.isArray(media.schema.anyOf)) return response
  const seen = new Set<string>()
  const anyOf = media.schema.anyOf.filter((option) => {
    const key = JSON.stringify(option)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const schema = anyOf.length === 1 ? anyOf[0] : { ...media.schema, anyOf }
  return { ...response, content: { ...response.content, "application/json": { ...media, schema } } }
}

const conditionalParameter = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "ETags you hold (a list, W/ tags and * accepted, compared weakly): 304 when one matches.",
  schema: { type: "string" }
}

const cacheHeaders = {
  ETag: {
    description: "Strong entity tag of exactly these bytes (one per content coding).",
    schema: { type: "string" }
  },
  "Cache-Control": { description: "How long the answer may be reused.", schema: { type: "string" } },
  Vary: { description: "Accept-Encoding, where compressed variants exist.", schema: { type: "string" } }
}

/** What the edge says for each status it answers on its own, whatever the operation. */
const edgeDescriptions: Record<string, string> = {
  "405":
    "METHOD_NOT_ALLOWED: this path does not take the method used. Every path of the API answers so for a method " +
    "it does not list; `Allow` names the ones it does.",
  "406":
    "NOT_ACCEPTABLE: none of the content codings that Accept-Encoding allows is available; accept identity.",
  "413":
    "PAYLOAD_TOO_LARGE: the request body is over its limit (the server's MAX_BODY_BYTES, or the operation's own); " +
    "`data` names the limit. Checked before the body is read.",
  "500":
    "INTERNAL_SERVER_ERROR: an unexpected failure; the envelope has `defined: false` and reveals nothing of it."
}

const allowHeader = {
  Allow: {
    description: "The methods this path accepts, e.g. `GET, HEAD`.",
    schema: { type: "string" }
  }
}

const errorResponse = (ref: string, status: string): Json => ({
  description: edgeDescriptions[status],
  content: { "application/json": { schema: { $ref: ref } } }
})

/** The 500 envelope (`defined: false`), written from the values the server sends. */
const internalErrorSchema: Json = {
  type: "object",
  title: "Internal server error",
  description: `${internalErrorEnvelope.status} ${internalErrorEnvelope.code}: an unexpected failure, without internals.`,
  required: ["defined", "code", "status", "message"],
  properties: {
    defined: { type: "boolean", enum: [internalErrorEnvelope.defined] },
    code: { type: "string", enum: [internalErrorEnvelope.code] },
    status: { type: "number", enum: [internalErrorEnvelope.status] },
    message: { type: "string" },
    data: { title: "Error details", description: "Never sent with this status." }
  },
  additionalProperties: false
}

/**
 * The statuses every operation can answer besides its own: 405 (with `Allow`) and 500 always; 413
 * only where a body is read (the edge never reads one of a GET); 406 only on GETs (only their
 * answers negotiate a content coding).
 */
const edgeStatuses = (method: string, responses: Json): Json => {
  const next: Json = { ...responses }
  const readsNoBody = method === "get" || method === "head"
  if (readsNoBody) delete next["413"]
  if (method !== "get") delete next["406"]
  for (const status of ["405", "406", "413"]) {
    const response = next[status]
    if (isJson(response)) next[status] = { ...response, description: edgeDescriptions[status] }
  }
  if (isJson(next["405"])) next["405"] = { ...next["405"], headers: allowHeader }
  next["500"] = errorResponse(`#/components/schemas/${internalErrorName}`, "500")
  return next
}

const refineOperation = (method: string, operation: Json, cachedGets: boolean): Json => {
  let responses: Json = isJson(operation.responses) ? { ...operation.responses } : {}
  if (isJson(responses["400"])) responses["400"] = fixBadRequest(responses["400"])
  for (const [status, response] of Object.entries(responses)) {
    if (isJson(response) && response.description === "Error") {
      responses[status] = {
        ...response,
        description: `${status} error in the envelope { defined, code, status, message, data? }`
      }
    }
  }
  let parameters = Array.isArray(operation.parameters) ? [...operation.parameters] : []
  responses = edgeStatuses(method, responses)
  if (cachedGets && method === "get") {
    parameters = [...parameters, conditionalParameter]
    const ok = isJson(responses["200"]) ? responses["200"] : {}
    responses["200"] = { ...ok, headers: { ...(isJson(ok.headers) ? ok.headers : {}), ...cacheHeaders } }
    responses["304"] = {
      description: "Not Modified: the ETag you sent still matches.",
      headers: cacheHeaders
    }
  }
  const deduplicated = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, withoutDuplicateAlternatives(response)])
  )
  return { ...operation, parameters, responses: deduplicated }
}

/**
 * The platform's built-in schemas carry lowercase labels (`int`, `unknown`) that reference pages
 * show as titles; they get plain names. (`$id: /schemas/unknown`, repeated wherever an unknown value
 * is, would make one id name many schemas.)
 */
const plainBuiltIns = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(plainBuiltIns)
  if (!isJson(node)) return node
  const entries = Object.entries(node).map(([key, value]) => [key, plainBuiltIns(value)] as const)
  const next: Json = Object.fromEntries(entries)
  if (next.$id === "/schemas/unknown") {
    delete next.$id
    if (next.title === "unknown") {
      next.title = "Any value"
      next.description ??= "Any JSON value."
    }
  }
  if (next.title === "int" && next.type === "integer") {
    next.title = "Integer"
    if (next.description === "an integer") next.description = "An integer."
  }
  return next
}

export const refineOpenApi = (spec: Json, options: RefineOptions = {}): Json => {
  const wildcards = options.wildcardPaths ?? {}
  const paths: Json = {}
  for (const [path, item] of Object.entries(isJson(spec.paths) ? spec.paths : {})) {
    if (!isJson(item)) continue
    const template = wildcards[path]
    const refined: Json = {}
    for (const [method, operation] of Object.entries(item)) {
      if (!methods.includes(method) || !isJson(operation)) {
        refined[method] = operation
        continue
      }
      let next = refineOperation(method, operation, options.cachedGets === true)
      if (template !== undefined) {
        const name = /\{([^}]+)\}/.exec(template)?.[1] ?? "path"
        next = {
          ...next,
          parameters: (Array.isArray(next.parameters) ? next.parameters : []).map((parameter) =>
            isJson(parameter) && parameter.name === "*" ? { ...parameter, name } : parameter
          )
        }
      }
      refined[method] = next
    }
    paths[template ?? path] = refined
  }
  const components = isJson(spec.components) ? { ...spec.components } : {}
  const schemas = isJson(components.schemas) ? { ...components.schemas } : {}
  // Only the decode error's own schemas go; nothing else refers to them once the 400s are fixed.
  delete schemas.HttpApiDecodeError
  delete schemas.Issue
  delete schemas.PropertyKey
  schemas[internalErrorName] = internalErrorSchema
  return plainBuiltIns({
    ...spec,
    openapi: "3.1.1",
    paths,
    components: { ...components, schemas }
  }) as Json
}

// Fixes applied to the OpenAPI documents the platform derives from our HttpApis, so that each is
// the exact contract: OpenAPI 3.1.1, our envelope instead of the framework's decode error (which the
// error middleware never lets out), parameters the OpenAPI path syntax cannot express, and the
// conditional-request headers of cached GETs.
type Json = Record<string, unknown>

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
    description: "BAD_REQUEST: a parameter or the body does not match the contract",
    content: { "application/json": { schema: ours.length === 1 ? ours[0] : { anyOf: ours } } }
  }
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

const refineOperation = (method: string, operation: Json, cachedGets: boolean): Json => {
  const responses = isJson(operation.responses) ? { ...operation.responses } : {}
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
  if (cachedGets && method === "get") {
    parameters = [...parameters, conditionalParameter]
    const ok = isJson(responses["200"]) ? responses["200"] : {}
    responses["200"] = { ...ok, headers: { ...(isJson(ok.headers) ? ok.headers : {}), ...cacheHeaders } }
    responses["304"] = {
      description: "Not Modified: the ETag you sent still matches.",
      headers: cacheHeaders
    }
  }
  return { ...operation, parameters, responses }
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
  return { ...spec, openapi: "3.1.1", paths, components: { ...components, schemas } }
}

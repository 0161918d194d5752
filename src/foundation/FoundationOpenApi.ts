// What the foundation's OpenAPI document says beyond the endpoint definitions: the security schemes
// of the base contract (§5) and of delegated access (extensions §8: `oauth2`, the authorization code
// flow with its URLs and scopes) and, for each operation, the credentials it accepts (derived from
// the authentication middleware the endpoint really uses, and the scope it declares), plus the shared
// fixes of src/http/OpenApiDocument.ts (OpenAPI 3.1.1, our envelope instead of the framework's decode
// error).
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { refineOpenApi } from "../http/OpenApiDocument.js"
import { scopeDescriptions } from "./Domain/Common.js"
import { oauthPaths } from "./OAuth/Metadata.js"
import { CredentialAuth, RequiredScope, SESSION_COOKIE, SessionAuth } from "./Security/Authentication.js"

type Json = Record<string, unknown>
type SecurityRequirement = Readonly<Record<string, ReadonlyArray<string>>>

export const securitySchemes = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description:
      "An organization API token (`fst_…`) or a delegated OAuth access token (`foa_…`): bound to one organization, " +
      "with the scopes organizations:read and/or organizations:write, acting for the person who created or approved it. " +
      "Accepted only where an operation lists it."
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "A first-party human session, set by sign-up and sign-in (HttpOnly; Secure; SameSite=Lax; Path=/). " +
      "State-changing requests with a session must send an Origin header equal to the service's public origin."
  },
  oauth2: {
    type: "oauth2",
    description:
      "Delegated access for apps and agents: the authorization code flow with PKCE (S256), the resource indicator " +
      "`<origin>/api/v1`, and the organization the person picks on the consent page. Metadata: " +
      "/.well-known/oauth-authorization-server and /.well-known/oauth-protected-resource/api/v1. Clients register " +
      "at /oauth/register or use a Client ID Metadata Document URL as client_id.",
    flows: {
      authorizationCode: {
        authorizationUrl: oauthPaths.authorize,
        tokenUrl: oauthPaths.token,
        refreshUrl: oauthPaths.token,
        scopes: scopeDescriptions
      }
    }
  }
} as const

const bearerOrSession = (scopes: ReadonlyArray<string>): ReadonlyArray<SecurityRequirement> => [
  { bearer: [] },
  { session: [] },
  { oauth2: scopes }
]
const sessionOnly: ReadonlyArray<SecurityRequirement> = [{ session: [] }]

/** operationId → the credentials its endpoint's middleware accepts (none: a public operation). */
const securityByOperation = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ReadonlyMap<string, ReadonlyArray<SecurityRequirement>> => {
  const security = new Map<string, ReadonlyArray<SecurityRequirement>>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, middleware }) => {
      const keys = new Set([...middleware].map((tag) => tag.key))
      const scope = Context.getOption(endpoint.annotations, RequiredScope)
      const requirement = keys.has(CredentialAuth.key)
        ? bearerOrSession(Option.toArray(scope))
        : keys.has(SessionAuth.key)
          ? sessionOnly
          : []
      // The operationId the document gives it: an Identifier annotation, else group.endpoint.
      const operationId = Option.getOrElse(
        Context.getOption(endpoint.annotations, OpenApi.Identifier),
        () => `${group.identifier}.${endpoint.name}`
      )
      security.set(operationId, requirement)
    }
  })
  return security
}

const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The API-level transform of the foundation's document (see `FoundationApi.ts`). */
export const documentFoundationApi = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  spec: Json,
  api: HttpApi.HttpApi<Id, Groups, E, R>
): Json => {
  const security = securityByOperation(api)
  const refined = refineOpenApi(spec)
  const paths: Json = {}
  for (const [path, item] of Object.entries(isJson(refined.paths) ? refined.paths : {})) {
    if (!isJson(item)) continue
    const operations: Json = {}
    for (const [method, operation] of Object.entries(item)) {
      if (!isJson(operation) || typeof operation.operationId !== "string") {
        operations[method] = operation
        continue
      }
      operations[method] = { ...operation, security: security.get(operation.operationId) ?? [] }
    }
    paths[path] = operations
  }
  const components = isJson(refined.components) ? refined.components : {}
  return {
    ...refined,
    // The service's default (base contract §5, rule 1); every operation narrows it.
    security: bearerOrSession([]),
    paths,
    components: { ...components, securitySchemes }
  }
}

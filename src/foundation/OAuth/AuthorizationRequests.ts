// Checking an authorization request (extensions §8), the same way for the query of `GET
// /oauth/authorize` and for the hidden fields the consent form posts back. In order: what makes the
// request impossible to answer at the client (no client, an unknown one, a redirect URI that is
// missing or not the client's, a repeated parameter) is shown as a page and never redirected to;
// everything after that goes back to the redirect URI as an OAuth error (RFC 6749 §4.1.2.1).
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { type ProtectedResource, ProtectedResources } from "../../http/ProtectedResources.js"
import { GrantScope } from "../Domain/Common.js"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import { parametersTextProblem } from "../Domain/Text.js"
import { traced } from "../Traced.js"
import { parseScopes, sortScopes } from "./AuthorizationServer.js"
import { Clients } from "./Clients.js"
import { FoundationResource } from "./FoundationResource.js"
import type { OAuthClient } from "./OAuthClient.js"
import { RedirectedError, UnredirectableRequest } from "./OAuthErrors.js"
import { isCodeChallenge } from "./Pkce.js"
import { redirectUriMatches } from "./RedirectUris.js"

/** The parameters of an authorization request the consent form carries back, in this order. */
export const authorizationParameters = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource"
] as const

/** A checked authorization request: what the person is asked to approve. */
export interface AuthorizationRequest {
  readonly client: OAuthClient
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly resource: ProtectedResource
  readonly scopes: ReadonlyArray<GrantScope>
  readonly state: string | null
  /** The request's own parameters (only those above), to carry through the consent form. */
  readonly parameters: ReadonlyArray<readonly [string, string]>
}

/** A `state` or other value longer than this is not worth carrying through a form. */
const MAX_PARAMETER_LENGTH = 2000

const isScope = Schema.is(GrantScope)

export class AuthorizationRequests extends Effect.Service<AuthorizationRequests>()("AuthorizationRequests", {
  effect: Effect.gen(function* () {
    const clients = yield* Clients
    const registry = yield* ProtectedResources
    const defaultResource = yield* FoundationResource

    const check = traced(
      "AuthorizationRequests.check",
      (
        input: ReadonlyArray<readonly [string, string]>,
        requester: string
      ): Effect.Effect<
        AuthorizationRequest,
        UnredirectableRequest | RedirectedError | RateLimited | DatabaseUnavailable
      > =>
        Effect.gen(function* () {
          const params = new Map<string, string>()
          for (const [name, value] of input) {
            // Nothing that cannot be stored goes on to a lookup (a client_id with a NUL failed one).
            const problem = parametersTextProblem([[name, value]])
            if (problem !== undefined) return yield* new UnredirectableRequest({ description: problem })
            // RFC 6749 §3.1: parameters must not be repeated; which one counts would be a guess.
            if (params.has(name)) {
              return yield* new UnredirectableRequest({
                description: `The parameter ${name} appears more than once.`
              })
            }
            if (value.length > MAX_PARAMETER_LENGTH) {
              return yield* new UnredirectableRequest({ description: `The parameter ${name} is too long.` })
            }
            params.set(name, value)
          }
          const clientId = params.get("client_id")
          if (clientId === undefined || clientId === "") {
            return yield* new UnredirectableRequest({
              description: "The request names no client (client_id)."
            })
          }
          const client = yield* clients
            .resolve(clientId, requester)
            .pipe(
              Effect.catchTag("InvalidClient", (error) =>
                Effect.fail(new UnredirectableRequest({ description: error.description }))
              )
            )
          const redirectUri = params.get("redirect_uri")
          if (redirectUri === undefined || redirectUri === "") {
            return yield* new UnredirectableRequest({ description: "The request has no redirect_uri." })
          }
          if (!redirectUriMatches(client.redirectUris, redirectUri)) {
            return yield* new UnredirectableRequest({
              description: "The redirect_uri is not one this client registered."
            })
          }
          const state = params.get("state") ?? null
          const back = (code: string, description: string) =>
            new RedirectedError({ redirectUri, state, code, description })

          if (params.get("response_type") !== "code") {
            return yield* back("unsupported_response_type", "response_type must be code.")
          }
          const codeChallenge = params.get("code_challenge")
          if (codeChallenge === undefined || !isCodeChallenge(codeChallenge)) {
            return yield* back("invalid_request", "A PKCE code_challenge (S256) is required.")
          }
          if (params.get("code_challenge_method") !== "S256") {
            return yield* back("invalid_request", "code_challenge_method must be S256.")
          }
          const resourceId = params.get("resource")
          const resource = resourceId === undefined ? defaultResource : registry.byResource(resourceId)
          if (resource === undefined) {
            return yield* back("invalid_target", "resource is not a resource of this service.")
          }
          const scopeParam = params.get("scope")
          // Without `scope`, the resource's read scope (declared first).
          const asked = scopeParam === undefined ? resource.scopes.slice(0, 1) : parseScopes(scopeParam)
          if (
            asked === undefined ||
            !asked.every((scope) => isScope(scope) && resource.scopes.includes(scope))
          ) {
            return yield* back(
              "invalid_scope",
              `scope must be one or more of: ${resource.scopes.join(", ")}, separated by spaces.`
            )
          }
          return {
            client,
            redirectUri,
            codeChallenge,
            resource,
            scopes: sortScopes(asked.filter(isScope)),
            state,
            parameters: authorizationParameters.flatMap((name) => {
              const value = params.get(name)
              return value === undefined ? [] : [[name, value] as const]
            })
          } satisfies AuthorizationRequest
        })
    )

    return { check }
  })
}) {}

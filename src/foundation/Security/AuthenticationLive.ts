// How a request is authenticated. The rule for mixed credentials is strict and simple: when an
// `Authorization` header is present it alone decides (it must be `Bearer <token>` naming a live
// token, else 401, whatever cookie comes with it); otherwise the session cookie decides. A bearer
// token is an organization API token (`fst_…`) or an OAuth access token (`foa_…`), which is accepted
// only by the resource it was issued for (extensions §8). Every 401 carries the resource's challenge
// (`WWW-Authenticate: Bearer resource_metadata=…`). Session writes must carry the public origin (403
// otherwise); every credential is rate-limited.
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ChallengeProblem, ProtectedResource } from "../../http/ProtectedResources.js"
import { Sessions } from "../Accounts/Sessions.js"
import {
  type DatabaseUnavailable,
  ForeignOrigin,
  type RateLimited,
  SessionRequired,
  Unauthenticated
} from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { ACCESS_TOKEN_PREFIX, AuthorizationServer } from "../OAuth/AuthorizationServer.js"
import { FoundationResource } from "../OAuth/FoundationResource.js"
import { ApiTokens } from "../Tokens/ApiTokens.js"
import { CredentialAuth, SESSION_COOKIE, SessionAuth } from "./Authentication.js"
import { parseBearer } from "./BearerToken.js"
import type { BearerPrincipal, Principal, SessionPrincipal } from "./Principal.js"
import { RateLimiter } from "./RateLimiter.js"
import { sessionCookie } from "./SessionCookie.js"

const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Our tokens are far shorter; anything longer is not worth a lookup. */
const MAX_TOKEN_LENGTH = 512

/** The Origin check of session writes: a missing or different Origin is refused. */
export const hasPublicOrigin = (
  request: { readonly method: string; readonly origin: string | undefined },
  publicOrigin: string
): boolean => !stateChanging.has(request.method) || request.origin === publicOrigin

/** What authentication reads of a request. */
export interface CredentialRequest {
  readonly method: string
  readonly authorization: string | undefined
  readonly origin: string | undefined
  /** The session cookie's value, if the request carries one. */
  readonly sessionToken: string | undefined
}

/** Who is calling, and the session cookie to send again when this request renewed it. */
export interface Authenticated {
  readonly principal: Principal
  readonly setCookie: string | undefined
}

export class Authenticator extends Effect.Service<Authenticator>()("Authenticator", {
  effect: Effect.gen(function* () {
    const sessions = yield* Sessions
    const tokens = yield* ApiTokens
    const oauth = yield* AuthorizationServer
    const limiter = yield* RateLimiter
    const apiResource = yield* FoundationResource
    const { publicOrigin, credentialRateLimit } = yield* FoundationConfig

    const refused = (resource: ProtectedResource, message: string, problem?: ChallengeProblem) =>
      new Unauthenticated({ message, wwwAuthenticate: resource.challenge(problem) })

    /** The principal of a bearer token, accepted only by `resource` when it is an OAuth token. */
    const bearerFor = (
      header: string,
      resource: ProtectedResource
    ): Effect.Effect<BearerPrincipal, Unauthenticated | RateLimited | DatabaseUnavailable> =>
      Effect.gen(function* () {
        const token = parseBearer(header)
        if (Option.isNone(token) || token.value.length > MAX_TOKEN_LENGTH) {
          return yield* refused(resource, "The Authorization header must be of the form `Bearer <token>`.", {
            error: "invalid_request"
          })
        }
        const invalid = (description: string) =>
          refused(resource, "The token is invalid, expired or revoked.", {
            error: "invalid_token",
            description
          })
        if (token.value.startsWith(ACCESS_TOKEN_PREFIX)) {
          const found = yield* oauth.authenticate(token.value)
          if (Option.isNone(found)) return yield* invalid("The access token is invalid, expired or revoked.")
          // A token names one resource (RFC 8707); any other refuses it as if it were unknown.
          if (found.value.resource !== resource.resource) {
            return yield* invalid("The access token was issued for another resource.")
          }
          yield* limiter.consume(`credential:${found.value.principal.grantId}`, credentialRateLimit)
          return found.value.principal
        }
        const principal = yield* tokens.authenticate(token.value)
        if (Option.isNone(principal)) return yield* invalid("The token is invalid, expired or revoked.")
        yield* limiter.consume(`credential:${principal.value.tokenId}`, credentialRateLimit)
        return principal.value
      })

    const session = (request: CredentialRequest) =>
      Effect.gen(function* () {
        const token = request.sessionToken
        if (token === undefined || token === "") {
          return yield* new Unauthenticated({ wwwAuthenticate: apiResource.challenge() })
        }
        const invalidSession = () =>
          refused(apiResource, "The session is invalid, expired or revoked. Sign in again.")
        if (token.length > MAX_TOKEN_LENGTH) return yield* invalidSession()
        const found = yield* sessions.authenticate(token)
        if (Option.isNone(found)) return yield* invalidSession()
        if (!hasPublicOrigin(request, publicOrigin)) {
          return yield* new ForeignOrigin({
            message: "State-changing requests with a session must come from the service's origin."
          })
        }
        yield* limiter.consume(`credential:${found.value.principal.sessionId}`, credentialRateLimit)
        return {
          principal: found.value.principal,
          // The expiry slid forward: the cookie goes again so the browser's copy slides too.
          setCookie: found.value.renewed ? sessionCookie(token, sessions.ttl) : undefined
        }
      })

    /**
     * A bearer token or a session, for the foundation API, from the parts of a request it reads (so
     * that the fast path of reads and the HttpApi middleware authenticate alike).
     */
    const authenticate = (
      request: CredentialRequest
    ): Effect.Effect<Authenticated, Unauthenticated | ForeignOrigin | RateLimited | DatabaseUnavailable> =>
      request.authorization === undefined
        ? session(request)
        : Effect.map(bearerFor(request.authorization, apiResource), (principal) => ({
            principal,
            setCookie: undefined
          }))

    /** The HttpApi middleware's form: the principal, and the renewed cookie on the response. */
    const credential = Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (
        request
      ): Effect.Effect<Principal, Unauthenticated | ForeignOrigin | RateLimited | DatabaseUnavailable> =>
        Effect.flatMap(
          authenticate({
            method: request.method,
            authorization: request.headers.authorization,
            origin: request.headers.origin,
            sessionToken: request.cookies[SESSION_COOKIE]
          }),
          ({ principal, setCookie }) =>
            setCookie === undefined
              ? Effect.succeed(principal)
              : Effect.as(
                  HttpApp.appendPreResponseHandler((_, response) =>
                    Effect.succeed(HttpServerResponse.setHeader(response, "set-cookie", setCookie))
                  ),
                  principal
                )
        )
    )

    /** A session only: a valid bearer token is known but may not act here (403). */
    const sessionOnly = Effect.flatMap(
      credential,
      (principal): Effect.Effect<SessionPrincipal, SessionRequired> =>
        principal.kind === "session" ? Effect.succeed(principal) : Effect.fail(new SessionRequired())
    )

    /**
     * The session of a page's request (the cookie), if it names a live one: pages answer people
     * without a session with a sign-in link rather than a 401, so this never fails for its absence.
     */
    const pageSession = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const token = request.cookies[SESSION_COOKIE]
        if (token === undefined || token === "" || token.length > MAX_TOKEN_LENGTH) {
          return Option.none<{ readonly principal: SessionPrincipal; readonly token: string }>()
        }
        const found = yield* sessions.authenticate(token)
        if (Option.isNone(found)) return Option.none()
        yield* limiter.consume(`credential:${found.value.principal.sessionId}`, credentialRateLimit)
        return Option.some({ principal: found.value.principal, token })
      })

    return { authenticate, credential, sessionOnly, bearerFor, pageSession }
  })
}) {}

export const CredentialAuthLive = Layer.effect(
  CredentialAuth,
  Effect.map(Authenticator, (authenticator) => authenticator.credential)
)

export const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.map(Authenticator, (authenticator) => authenticator.sessionOnly)
)

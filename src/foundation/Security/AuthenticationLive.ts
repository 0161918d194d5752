// How a request is authenticated. The rule for mixed credentials is strict and simple: when an
// `Authorization` header is present it alone decides (it must be `Bearer <token>` naming a live
// token, else 401, whatever cookie comes with it); otherwise the session cookie decides. Session
// writes must carry the public origin (403 otherwise); every credential is rate-limited.
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Sessions } from "../Accounts/Sessions.js"
import {
  type DatabaseUnavailable,
  ForeignOrigin,
  type RateLimited,
  SessionRequired,
  Unauthenticated
} from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { ApiTokens } from "../Tokens/ApiTokens.js"
import { CredentialAuth, SESSION_COOKIE, SessionAuth } from "./Authentication.js"
import { parseBearer } from "./BearerToken.js"
import type { Principal, SessionPrincipal } from "./Principal.js"
import { RateLimiter } from "./RateLimiter.js"
import { sessionCookie } from "./SessionCookie.js"

const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Our tokens are far shorter; anything longer is not worth a lookup. */
const MAX_TOKEN_LENGTH = 512

const malformedAuthorization = () =>
  new Unauthenticated({ message: "The Authorization header must be of the form `Bearer <token>`." })
const invalidToken = () => new Unauthenticated({ message: "The token is invalid, expired or revoked." })
const noSession = () => new Unauthenticated()
const invalidSession = () =>
  new Unauthenticated({ message: "The session is invalid, expired or revoked. Sign in again." })

/** The Origin check of session writes: a missing or different Origin is refused. */
export const hasPublicOrigin = (
  request: HttpServerRequest.HttpServerRequest,
  publicOrigin: string
): boolean => !stateChanging.has(request.method) || request.headers.origin === publicOrigin

export class Authenticator extends Effect.Service<Authenticator>()("Authenticator", {
  effect: Effect.gen(function* () {
    const sessions = yield* Sessions
    const tokens = yield* ApiTokens
    const limiter = yield* RateLimiter
    const { publicOrigin, credentialRateLimit } = yield* FoundationConfig

    const bearer = (header: string) =>
      Effect.gen(function* () {
        const token = parseBearer(header)
        if (Option.isNone(token) || token.value.length > MAX_TOKEN_LENGTH)
          return yield* malformedAuthorization()
        const principal = yield* tokens.authenticate(token.value)
        if (Option.isNone(principal)) return yield* invalidToken()
        yield* limiter.consume(`credential:${principal.value.tokenId}`, credentialRateLimit)
        return principal.value
      })

    const session = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const token = request.cookies[SESSION_COOKIE]
        if (token === undefined || token === "") return yield* noSession()
        if (token.length > MAX_TOKEN_LENGTH) return yield* invalidSession()
        const found = yield* sessions.authenticate(token)
        if (Option.isNone(found)) return yield* invalidSession()
        if (!hasPublicOrigin(request, publicOrigin)) {
          return yield* new ForeignOrigin({
            message: "State-changing requests with a session must come from the service's origin."
          })
        }
        yield* limiter.consume(`credential:${found.value.principal.sessionId}`, credentialRateLimit)
        if (found.value.renewed) {
          // The expiry slid forward: send the cookie again so the browser's copy slides too.
          yield* HttpApp.appendPreResponseHandler((_, response) =>
            Effect.succeed(
              HttpServerResponse.setHeader(response, "set-cookie", sessionCookie(token, sessions.ttl))
            )
          )
        }
        return found.value.principal
      })

    /** A bearer token or a session. */
    const credential = Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (
        request
      ): Effect.Effect<Principal, Unauthenticated | ForeignOrigin | RateLimited | DatabaseUnavailable> => {
        const authorization = request.headers.authorization
        return authorization === undefined ? session(request) : bearer(authorization)
      }
    )

    /** A session only: a valid bearer token is known but may not act here (403). */
    const sessionOnly = Effect.flatMap(
      credential,
      (principal): Effect.Effect<SessionPrincipal, SessionRequired> =>
        principal.kind === "session" ? Effect.succeed(principal) : Effect.fail(new SessionRequired())
    )

    return { credential, sessionOnly }
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

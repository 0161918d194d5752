// The OAuth endpoints at the origin's root (extensions §8): the two metadata documents, the
// authorization endpoint (GET: the consent page, after sign-in; POST: the person's decision), the
// token endpoint (authorization_code with PKCE, refresh_token), dynamic registration and revocation.
// They answer in OAuth's own formats (JSON errors, redirects back to the client, pages for people),
// never in the envelope, and each declares its bodies to the server's edge.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { ClientAddress } from "../../http/ClientAddress.js"
import { metadataPrefix, ProtectedResources } from "../../http/ProtectedResources.js"
import { html, neutralText } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import { seeOther, tooManyRequests } from "../Accounts/SignInRoutes.js"
import { UserRepo } from "../Accounts/UserRepo.js"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { OrganizationRepo } from "../Organizations/OrganizationRepo.js"
import { formParameters, singleValued, type UnreadableForm } from "../Pages/FormBody.js"
import { sameFormToken, sessionFormToken } from "../Pages/FormToken.js"
import { messagePage } from "../Pages/MessagePage.js"
import { formRefusal } from "../Pages/PageForm.js"
import { signInPath } from "../Pages/ReturnTo.js"
import { Authenticator } from "../Security/AuthenticationLive.js"
import { clientInfo } from "../Security/ClientInfo.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { RateLimiter } from "../Security/RateLimiter.js"
import { hashSecret } from "../Security/Secrets.js"
import {
  type AuthorizationRequest,
  AuthorizationRequests,
  authorizationParameters
} from "./AuthorizationRequests.js"
import { AuthorizationServer, grantableScopes } from "./AuthorizationServer.js"
import { Clients, parseBasic } from "./Clients.js"
import { consentPage, grantFieldOf } from "./ConsentPage.js"
import { authorizationServerMetadata, oauthPaths, protectedResourceMetadata } from "./Metadata.js"
import {
  methodNotAllowedResponse,
  oauthJson,
  oauthRefusal,
  preflightResponse,
  protocolErrorResponse,
  publicJson,
  serverErrorResponse,
  tooManyRequestsResponse,
  unavailableResponse,
  withQuery
} from "./OAuthAnswers.js"
import {
  InvalidClientMetadata,
  InvalidRequest,
  type OAuthProtocolError,
  type RedirectedError,
  type UnredirectableRequest,
  UnsupportedGrantType
} from "./OAuthErrors.js"

/** Token, revocation and authorization posts are a handful of short parameters. */
const MAX_FORM_BYTES = 16 * 1024
/** A registration is a small JSON object (at most ten redirect URIs and a name). */
const MAX_REGISTRATION_BYTES = 16 * 1024

type Request = HttpServerRequest.HttpServerRequest
type Response = HttpServerResponse.HttpServerResponse

/** Binds the consent form to the session and to the request. */
const consentToken = (sessionToken: string, parameters: ReadonlyArray<readonly [string, string]>) =>
  sessionFormToken(
    sessionToken,
    "oauth-consent",
    new URLSearchParams(parameters.map(([name, value]): [string, string] => [name, value])).toString()
  )

/** A page for the person, with the way forward said. */
const refusalPage = (status: number, title: string, text: string) =>
  messagePage({ status, title, body: html`<p>${text}</p>` })

const unavailablePage = messagePage({
  status: 503,
  title: "Try again in a moment",
  body: html`<p>The service is temporarily unavailable. Reload this page in a few seconds.</p>`,
  headers: { "retry-after": "5" }
})

/** A defect at a JSON endpoint: logged with its cause, answered without internals. */
const logDefect = (defect: unknown) =>
  Effect.logError("Unhandled failure while answering an OAuth request", Cause.die(defect))

/** Routes one path: `handlers` by method, OPTIONS for CORS where given, 405 for the rest. */
const byMethod = (
  handlers: Readonly<Record<string, Effect.Effect<Response, never, Request>>>,
  options: { readonly cors?: boolean; readonly page?: boolean } = {}
): Effect.Effect<Response, never, Request> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const allow = Object.keys(handlers)
    const method = request.method === "HEAD" && handlers.GET !== undefined ? "GET" : request.method
    const handler = handlers[method]
    if (handler !== undefined) return handler
    if (method === "OPTIONS" && options.cors === true) return Effect.succeed(preflightResponse(allow))
    return Effect.succeed(
      options.page === true
        ? messagePage({
            status: 405,
            title: "Not here",
            body: html`<p>This address takes ${allow.join(" and ")}.</p>`,
            headers: { allow: allow.join(", ") }
          })
        : methodNotAllowedResponse(allow)
    )
  })

export const OAuthRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const requests = yield* AuthorizationRequests
    const server = yield* AuthorizationServer
    const clients = yield* Clients
    const authenticator = yield* Authenticator
    const organizations = yield* OrganizationRepo
    const users = yield* UserRepo
    const limiter = yield* RateLimiter
    const registry = yield* ProtectedResources
    const config = yield* FoundationConfig
    const addresses = yield* ClientAddress
    const issuer = config.publicOrigin

    const pageRefusal = formRefusal()
    ;(yield* BodyRules).add([
      {
        method: "POST",
        path: oauthPaths.token,
        maxBytes: MAX_FORM_BYTES,
        mediaTypes: ["form"],
        refusal: oauthRefusal
      },
      {
        method: "POST",
        path: oauthPaths.revoke,
        maxBytes: MAX_FORM_BYTES,
        mediaTypes: ["form"],
        refusal: oauthRefusal
      },
      { method: "POST", path: oauthPaths.register, maxBytes: MAX_REGISTRATION_BYTES, refusal: oauthRefusal },
      {
        method: "POST",
        path: oauthPaths.authorize,
        maxBytes: MAX_FORM_BYTES,
        mediaTypes: ["form"],
        refusal: pageRefusal
      }
    ])

    // -------------------------------------------------------------------------------------------
    // Metadata (RFC 8414, RFC 9728)
    // -------------------------------------------------------------------------------------------

    const serverMetadata = Effect.sync(() => publicJson(authorizationServerMetadata(issuer, registry.all())))

    const resourceMetadata = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const path = new URL(request.url, issuer).pathname
      const resource = registry.byMetadataPath(path)
      return resource === undefined
        ? HttpServerResponse.unsafeJson(
            { error: "not_found", error_description: `No protected resource has its metadata at ${path}.` },
            { status: 404, headers: { "access-control-allow-origin": "*" } }
          )
        : publicJson(protectedResourceMetadata(issuer, resource))
    })

    // -------------------------------------------------------------------------------------------
    // The authorization endpoint
    // -------------------------------------------------------------------------------------------

    /** The redirect that answers an authorization request at the client (with `iss`, RFC 9207). */
    const backToClient = (redirectUri: string, params: ReadonlyArray<readonly [string, string]>) =>
      seeOther(withQuery(redirectUri, [...params, ["iss", issuer]]))

    const redirectedError = (error: RedirectedError) =>
      backToClient(error.redirectUri, [
        ["error", error.code],
        ["error_description", error.description],
        ...(error.state === null ? [] : [["state", error.state] as const])
      ])

    /** The consent page for a checked request, for the signed-in person. */
    const consent = (
      request: AuthorizationRequest,
      session: { readonly principal: SessionPrincipal; readonly token: string },
      problem?: { readonly status: number; readonly text: string; readonly granted?: ReadonlyArray<string> }
    ) =>
      Effect.gen(function* () {
        const person = yield* users.findById(session.principal.userId)
        if (Option.isNone(person))
          return refusalPage(401, "Sign in again", "Your account could not be found.")
        return consentPage({
          request,
          person: { name: person.value.name, email: person.value.email },
          organizations: yield* organizations.summariesForUser(session.principal.userId),
          formToken: consentToken(session.token, request.parameters),
          ...(problem === undefined ? {} : { problem: problem.text, status: problem.status }),
          ...(problem?.granted === undefined ? {} : { granted: problem.granted })
        })
      })

    const authorizeGet = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const url = new URL(request.url, issuer)
      const checked = yield* requests.check([...url.searchParams], (yield* clientInfo(addresses)).address)
      const session = yield* authenticator.pageSession(request)
      // No session: sign in first, then come back to this very request.
      if (Option.isNone(session)) return seeOther(signInPath(`${url.pathname}${url.search}`))
      return yield* consent(checked, session.value)
    })

    const authorizePost = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      // The decision changes state with the person's session: only this service's own page may send it.
      if (request.headers.origin !== issuer) {
        return refusalPage(
          403,
          "Decision refused",
          "This decision was not sent from this service's consent page, so it was not taken. Start again from the app."
        )
      }
      const session = yield* authenticator.pageSession(request)
      if (Option.isNone(session)) {
        return refusalPage(401, "Sign in again", "Your session has ended. Start again from the app.")
      }
      const fields = singleValued(yield* formParameters)
      if (Either.isLeft(fields)) {
        return refusalPage(400, "This request cannot go on", `The field ${fields.left} appears twice.`)
      }
      const params = fields.right
      const carried = authorizationParameters.flatMap((name) => {
        const value = params.get(name)
        return value === undefined ? [] : [[name, value] as const]
      })
      if (!sameFormToken(params.get("consent_token") ?? "", consentToken(session.value.token, carried))) {
        return refusalPage(
          403,
          "Decision refused",
          "This consent form does not belong to your session or was changed. Start again from the app."
        )
      }
      const checked = yield* requests.check(carried, (yield* clientInfo(addresses)).address)
      const state = checked.state === null ? [] : [["state", checked.state] as const]
      const decision = params.get("decision")
      if (decision === "deny") {
        return backToClient(checked.redirectUri, [
          ["error", "access_denied"],
          ["error_description", "The person declined."],
          ...state
        ])
      }
      if (decision !== "approve")
        return refusalPage(400, "This request cannot go on", "Choose Allow or Deny.")
      // What the person left ticked: some or all of what was asked, never more.
      const granted = checked.scopes.filter((scope) => params.get(grantFieldOf(scope)) === scope)
      if (granted.length === 0) {
        return yield* consent(checked, session.value, {
          status: 400,
          text: "Tick at least one thing the app may do, or choose Deny.",
          granted
        })
      }
      const userId = session.value.principal.userId
      const chosen = (yield* organizations.summariesForUser(userId)).find(
        (organization) => organization.id === params.get("organization")
      )
      if (chosen === undefined) {
        return yield* consent(checked, session.value, {
          status: 400,
          text: "Pick one of your organizations.",
          granted
        })
      }
      if (grantableScopes(chosen.role, granted).length < granted.length) {
        return yield* consent(checked, session.value, {
          status: 403,
          text: `Only owners and admins may let an app change ${neutralText(chosen.name)}.`,
          granted
        })
      }
      const code = yield* server
        .issueCode({
          client: checked.client,
          redirectUri: checked.redirectUri,
          codeChallenge: checked.codeChallenge,
          resource: checked.resource.resource,
          userId,
          organizationId: chosen.id,
          scopes: granted
        })
        .pipe(
          Effect.map(Option.some),
          Effect.catchTag("ApprovalNotAllowed", () => Effect.succeed(Option.none()))
        )
      // Removed from the organization between the page and the decision (the code is bound to the
      // membership, and there is none to bind it to).
      if (Option.isNone(code)) {
        return yield* consent(checked, session.value, {
          status: 403,
          text: `You are no longer a member of ${neutralText(chosen.name)}.`,
          granted
        })
      }
      return backToClient(checked.redirectUri, [["code", code.value], ...state])
    })

    /** Every failure of the authorization endpoint as the person sees it. */
    const pageFailures = (
      effect: Effect.Effect<
        Response,
        RedirectedError | UnredirectableRequest | UnreadableForm | RateLimited | DatabaseUnavailable,
        Request
      >
    ): Effect.Effect<Response, never, Request> =>
      effect.pipe(
        Effect.catchTags({
          RedirectedError: (error) => Effect.succeed(redirectedError(error)),
          UnredirectableRequest: (error) =>
            Effect.succeed(refusalPage(400, "This request cannot go on", error.description)),
          UnreadableForm: (error) =>
            Effect.succeed(refusalPage(400, "This request cannot go on", error.description)),
          RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
          DatabaseUnavailable: () => Effect.succeed(unavailablePage)
        }),
        Effect.catchAllDefect((defect) =>
          Effect.as(
            logDefect(defect),
            refusalPage(500, "Something went wrong", "An unexpected error occurred. Try again later.")
          )
        )
      )

    // -------------------------------------------------------------------------------------------
    // The token, revocation and registration endpoints
    // -------------------------------------------------------------------------------------------

    /** The request's form parameters, each at most once. */
    const tokenRequestParameters = Effect.flatMap(
      formParameters.pipe(Effect.mapError((error) => new InvalidRequest({ description: error.description }))),
      (params) =>
        Either.match(singleValued(params), {
          onLeft: (name) =>
            Effect.fail(new InvalidRequest({ description: `The parameter ${name} appears twice.` })),
          onRight: Effect.succeed
        })
    )

    const required = (params: ReadonlyMap<string, string>, name: string) => {
      const value = params.get(name)
      return value === undefined || value === ""
        ? Effect.fail(new InvalidRequest({ description: `${name} is required.` }))
        : Effect.succeed(value)
    }

    const token = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* tokenRequestParameters
      const authorization = request.headers.authorization
      // 60 requests a minute per client (extensions §8), counted before authentication so a client's
      // secret cannot be guessed at speed; requests naming no client count against their address.
      const requester = (yield* clientInfo(addresses)).address
      const claimed =
        (authorization === undefined ? params.get("client_id") : parseBasic(authorization)?.id) ??
        `address:${requester}`
      yield* limiter.consume(`oauth-token:${hashSecret(claimed)}`, config.oauthTokenRateLimit)
      const client = yield* clients.authenticate(authorization, params.get("client_id"), requester)
      const grantType = yield* required(params, "grant_type")
      if (grantType === "authorization_code") {
        const issued = yield* server.exchangeCode(client, {
          code: yield* required(params, "code"),
          codeVerifier: yield* required(params, "code_verifier"),
          redirectUri: yield* required(params, "redirect_uri"),
          resource: params.get("resource")
        })
        return oauthJson(issued)
      }
      if (grantType === "refresh_token") {
        const issued = yield* server.refresh(client, {
          refreshToken: yield* required(params, "refresh_token"),
          scope: params.get("scope"),
          resource: params.get("resource")
        })
        return oauthJson(issued)
      }
      return yield* new UnsupportedGrantType({
        description: "grant_type must be authorization_code or refresh_token."
      })
    })

    const revoke = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* tokenRequestParameters
      const client = yield* clients.authenticate(
        request.headers.authorization,
        params.get("client_id"),
        (yield* clientInfo(addresses)).address
      )
      yield* server.revoke(client, yield* required(params, "token"))
      // RFC 7009 §2.2: 200 whether or not the token was known.
      return HttpServerResponse.empty({
        status: 200,
        headers: { "cache-control": "no-store", "access-control-allow-origin": "*" }
      })
    })

    const register = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      // 10 registrations a minute per address (extensions §8).
      yield* limiter.consume(
        `oauth-register:${(yield* clientInfo(addresses)).address}`,
        config.oauthRegistrationRateLimit
      )
      const body = yield* request.json.pipe(
        Effect.mapError(() => new InvalidClientMetadata({ description: "The body must be a JSON object." }))
      )
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return yield* new InvalidClientMetadata({ description: "The body must be a JSON object." })
      }
      const registered = yield* clients.register(body as Readonly<Record<string, unknown>>)
      return oauthJson(registered, 201)
    })

    /** Every failure of a JSON endpoint in OAuth's format. */
    const jsonFailures = (
      effect: Effect.Effect<Response, OAuthProtocolError | RateLimited | DatabaseUnavailable, Request>
    ): Effect.Effect<Response, never, Request> =>
      effect.pipe(
        Effect.catchAll((failure) => {
          switch (failure._tag) {
            case "RateLimited":
              return Effect.succeed(tooManyRequestsResponse(failure.retryAfterSeconds))
            case "DatabaseUnavailable":
              return Effect.succeed(unavailableResponse(failure.retryAfterSeconds))
            default:
              return Effect.succeed(protocolErrorResponse(failure))
          }
        }),
        Effect.catchAllDefect((defect) => Effect.as(logDefect(defect), serverErrorResponse()))
      )

    const add = (path: `/${string}`, handler: Effect.Effect<Response, never, Request>) =>
      router.add("*", path, handler)

    yield* add(oauthPaths.serverMetadata, byMethod({ GET: serverMetadata }, { cors: true }))
    yield* add(`${metadataPrefix}/*`, byMethod({ GET: resourceMetadata }, { cors: true }))
    yield* add(
      oauthPaths.authorize,
      byMethod({ GET: pageFailures(authorizeGet), POST: pageFailures(authorizePost) }, { page: true })
    )
    yield* add(oauthPaths.token, byMethod({ POST: jsonFailures(token) }, { cors: true }))
    yield* add(oauthPaths.revoke, byMethod({ POST: jsonFailures(revoke) }, { cors: true }))
    yield* add(oauthPaths.register, byMethod({ POST: jsonFailures(register) }, { cors: true }))
  })
)

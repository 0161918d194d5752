// The foundation's hot authenticated reads answered without the HttpApi pipeline: `credential-context`,
// `organizations.get` and `members.list`. A plain node handler in front of the router matches the
// path, decodes it and the query with the endpoints' own schemas (anything they refuse falls through
// to the router, which answers the 400), authenticates with the middleware's own Authenticator, runs
// the same operations as the handlers, and writes the success encoded with the endpoint's schema or
// the error with the shared writer, so its bytes are the handlers' bytes (test/foundation/fast-path).
// With traces exported (OTEL_EXPORTER_OTLP_ENDPOINT), requests go through the traced pipeline instead.
import type * as Http from "node:http"
import * as Cookies from "@effect/platform/Cookies"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { internalErrorEnvelope, isApiError } from "../http/ApiError.js"
import { envelopeAnswer, writeAnswer, writeError } from "../http/ErrorAnswer.js"
import { routeTemplate } from "../http/RouteTable.js"
import { FastPaths } from "../http/ServerRegistries.js"
import { tracesExported } from "../observability/TelemetryConfig.js"
import { builtOnce } from "./Database/RememberedRows.js"
import { PageQuery, pageRequest } from "./Domain/Common.js"
import { CredentialContext } from "./Domain/CredentialContext.js"
import { SessionRequired } from "./Domain/Errors.js"
import { type OrganizationId, OrganizationPath } from "./Domain/Ids.js"
import type { Member } from "./Domain/Member.js"
import { Organization } from "./Domain/Organization.js"
import { Members } from "./Members/Members.js"
import { Organizations } from "./Organizations/Organizations.js"
import { SESSION_COOKIE } from "./Security/Authentication.js"
import { type Authenticated, Authenticator } from "./Security/AuthenticationLive.js"
import type { Principal } from "./Security/Principal.js"

const PREFIX = "/api/v1"
/** Path segments the fast path takes as they are: no percent-escapes to undo. */
const plainSegment = /^[A-Za-z0-9_-]+$/

const internalError = envelopeAnswer(internalErrorEnvelope)

/**
 * `schema`'s encoding of a value, made once per value: the hot reads answer the same objects again
 * and again (an organization and a credential's context are built once from their remembered rows),
 * and encoding is a pure function of them.
 */
const encodedOnce = <A extends object, I>(schema: Schema.Schema<A, I>) =>
  builtOnce(Schema.encodeEither(schema))

// The success schemas the endpoints declare (`addSuccess`), as their handlers' answers are encoded.
const encode = {
  credentialContext: encodedOnce(CredentialContext),
  organization: encodedOnce(Organization),
  // A page of members is written as it is. Each item's fields were decoded from its row by the
  // `Member` schema's own field schemas (MemberRepo's `MemberRow`), and none of them transforms, so
  // encoding the page would check every field a second time to give the same bytes: ≈ 90 µs of
  // CPU a page of 50, an eighth of the request. test/foundation/fast-path.test.ts compares these
  // bytes with the pipeline's, which encodes; test/foundation/member-encoding.test.ts checks that
  // a Member encodes to itself.
  members: (page: { readonly items: ReadonlyArray<Member>; readonly nextCursor: string | null }) =>
    Effect.succeed(page)
}

// The schemas the endpoints declare for their path and query.
const decodePath = Schema.decodeUnknownEither(OrganizationPath)
const decodeQuery = Schema.decodeUnknownEither(PageQuery)

/** The query's parameters, or undefined when one is given twice (the router's decoding judges those). */
const singleParams = (query: string): Record<string, string> | undefined => {
  const params: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(query)) {
    if (key in params) return undefined
    params[key] = value
  }
  return params
}

/** The routes the fast path answers, as the router names them (traces and metrics read these). */
const routes = {
  credentialContext: routeTemplate(`${PREFIX}/credential-context`),
  organization: routeTemplate(`${PREFIX}/organizations/:organizationId`),
  members: routeTemplate(`${PREFIX}/organizations/:organizationId/members`)
} as const

type Route =
  | { readonly kind: "credentialContext" }
  | { readonly kind: "organization"; readonly organizationId: OrganizationId }
  | { readonly kind: "members"; readonly organizationId: OrganizationId; readonly query: PageQuery }

/** The operation a URL names, with its decoded input, or undefined to let the router answer. */
const route = (url: string): Route | undefined => {
  if (!url.startsWith(PREFIX)) return undefined
  const q = url.indexOf("?")
  const path = q === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, q)
  if (path === "/credential-context") return q === -1 ? { kind: "credentialContext" } : undefined
  const parts = path.split("/")
  if (parts[1] !== "organizations" || parts[2] === undefined || !plainSegment.test(parts[2])) return undefined
  const decodedPath = decodePath({ organizationId: parts[2] })
  if (Either.isLeft(decodedPath)) return undefined
  const { organizationId } = decodedPath.right
  if (parts.length === 3) return q === -1 ? { kind: "organization", organizationId } : undefined
  if (parts.length !== 4 || parts[3] !== "members") return undefined
  const params = singleParams(q === -1 ? "" : url.slice(q + 1))
  const query = params === undefined ? undefined : Either.getOrUndefined(decodeQuery(params))
  return query === undefined ? undefined : { kind: "members", organizationId, query }
}

const header = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : value?.[0]

export const ReadFastPath = Layer.effectDiscard(
  Effect.gen(function* () {
    // A traced server sends every request through the pipeline, which makes its spans.
    if (yield* tracesExported) return
    const authenticator = yield* Authenticator
    const organizations = yield* Organizations
    const members = yield* Members
    // The runtime's fibers start with the tracer off (their traced calls make no span), as a
    // request's would with `Effect.withTracerEnabled(false)`, without setting it per request.
    const runFork = Runtime.runFork(yield* Effect.withTracerEnabled(Effect.runtime<never>(), false))

    /** The operation's success, encoded as its endpoint encodes it. */
    const operation = (found: Route, principal: Principal): Effect.Effect<unknown, unknown> => {
      switch (found.kind) {
        case "credentialContext":
          return Effect.flatMap(organizations.credentialContext(principal), encode.credentialContext)
        case "organization":
          return Effect.flatMap(organizations.get(principal, found.organizationId), encode.organization)
        case "members":
          // The members group is for sessions only, as its middleware says.
          if (principal.kind !== "session") return Effect.fail(new SessionRequired())
          return Effect.flatMap(
            members.list(principal, found.organizationId, pageRequest(found.query)),
            encode.members
          )
      }
    }

    const answer = (request: Http.IncomingMessage, response: Http.ServerResponse, found: Route) => {
      const headers = request.headers
      const cookie = headers.cookie
      let authenticated: Authenticated | undefined
      const work = Effect.flatMap(
        authenticator.authenticate({
          method: "GET",
          authorization: headers.authorization,
          origin: header(headers.origin),
          sessionToken: cookie === undefined ? undefined : Cookies.parseHeader(cookie)[SESSION_COOKIE]
        }),
        (result) => {
          authenticated = result
          return operation(found, result.principal)
        }
      )
      runFork(work).addObserver((exit) => {
        const setCookie = authenticated?.setCookie
        const extra: Record<string, string> = setCookie === undefined ? {} : { "set-cookie": setCookie }
        if (Exit.isSuccess(exit)) {
          const body = JSON.stringify(exit.value)
          response.writeHead(200, {
            ...extra,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body))
          })
          response.end(body)
          return
        }
        const failure = Cause.failureOption(exit.cause)
        if (Option.isSome(failure) && isApiError(failure.value)) {
          writeError(request, response, failure.value, extra)
          return
        }
        if (Cause.isInterruptedOnly(exit.cause)) return
        runFork(Effect.logError("Unhandled failure while answering a request", exit.cause))
        writeAnswer(internalError, request, response)
      })
    }

    ;(yield* FastPaths).add((request, response) => {
      if (request.method !== "GET") return false
      const found = route(request.url ?? "/")
      if (found === undefined) return false
      answer(request, response, found)
      return routes[found.kind]
    })
  })
)

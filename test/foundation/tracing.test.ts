// Traces of the foundation, as a collector receives them: with OTEL_EXPORTER_OTLP_ENDPOINT set, a
// request is one server span named by its route, continuing the caller's `traceparent` and
// `tracestate`, with the service call under it, the repository calls under the service and the SQL
// under those; nothing secret (passwords, session and API tokens, emailed link tokens) appears in
// anything exported. With no endpoint, the same request makes no span at all.

import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import * as oauth from "oauth4webapi"
import { eventually, type OtlpReceiver, otlpReceiver, type ReceivedSpan } from "../support/OtlpReceiver.js"
import { request } from "../support/TestServer.js"
import { freshDataDir, freshPostgresDatabase, hasPostgres } from "./support/Backends.js"
import {
  call,
  createOrganization,
  createToken,
  foundationServer,
  linkTokenFor,
  signUp
} from "./support/FoundationClient.js"
import {
  approve,
  authorizationUrl,
  browserRequest,
  callApi,
  exchange,
  oauthWorld,
  REDIRECT_URI,
  refresh,
  registerConfidential
} from "./support/OAuthFlow.js"

// Tracing does not depend on the database: PostgreSQL when there is one (a fresh database starts in
// a second), the embedded one otherwise.
const database = hasPostgres
  ? Effect.map(freshPostgresDatabase, ({ url }): Record<string, string> => ({ DATABASE_URL: url }))
  : Effect.map(freshDataDir, (dir): Record<string, string> => ({ DATA_DIR: dir }))

class Receiver extends Effect.Tag("Receiver")<Receiver, OtlpReceiver>() {}

const tracedServer = Layer.unwrapScoped(
  Effect.map(otlpReceiver, (receiver) =>
    Layer.merge(
      foundationServer(database, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_SERVICE_NAME: "foundation-under-test",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test,team=pod%2Ccasts",
        // The metadata document of the outbound-fetch test is served on loopback.
        OAUTH_ALLOW_PRIVATE_ADDRESSES: "true"
      }),
      Layer.succeed(Receiver, receiver)
    )
  )
)

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
const callerSpanId = "00f067aa0ba902b7"

/** The spans of one trace, once its server span has arrived. */
const traceOf = (receiver: OtlpReceiver, id: string) =>
  Effect.flatMap(
    eventually(() => receiver.spans.find((span) => span.traceId === id && span.kind === 2)),
    () =>
      // The children end before the server span, so they were exported with it or before it.
      Effect.succeed(receiver.spans.filter((span) => span.traceId === id))
  )

const byName = (spans: ReadonlyArray<ReceivedSpan>, name: string) => {
  const found = spans.find((span) => span.name === name)
  if (found === undefined)
    throw new Error(`no span ${name} among ${spans.map((span) => span.name).join(", ")}`)
  return found
}

/** A server on loopback answering every request with `handler`, for the scope. */
const documentHost = (
  handler: (url: string, request: Http.IncomingMessage, response: Http.ServerResponse) => void
) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: Http.Server; url: string }>((resolve) => {
          let url = ""
          const server = Http.createServer((request, response) => handler(url, request, response))
          server.listen(0, "127.0.0.1", () => {
            url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client.json`
            resolve({ server, url })
          })
        })
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  )

describe("with traces exported over OTLP", () => {
  layer(tracedServer, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a request is a server span named by its route, continuing the caller's trace context", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        const account = yield* signUp("traced")
        const organization = yield* createOrganization(account, "Traced")
        const response = yield* call(`/organizations/${organization.id}`, {
          method: "PATCH",
          session: account.session,
          body: { version: 1, name: "Renamed" },
          headers: {
            traceparent: `00-${traceId}-${callerSpanId}-01`,
            tracestate: "vendor=opaque-value"
          }
        })
        expect(response.status).toBe(200)
        const spans = yield* traceOf(receiver, traceId)
        const server = byName(spans, "PATCH /api/v1/organizations/{organizationId}")
        expect(server.kind).toBe(2)
        expect(server.parentSpanId).toBe(callerSpanId)
        expect(server.traceState).toBe("vendor=opaque-value")
        expect(server.attributes).toMatchObject({
          "http.request.method": "PATCH",
          "http.route": "/api/v1/organizations/{organizationId}",
          "http.response.status_code": 200,
          "url.scheme": "http",
          "url.path": `/api/v1/organizations/${organization.id}`,
          "server.address": "127.0.0.1",
          "client.address": "127.0.0.1",
          "network.protocol.version": "1.1"
        })
        expect(server.attributes["url.query"]).toBeUndefined()
        expect(server.statusCode).toBe(0)
        expect(server.resource).toMatchObject({
          "service.name": "foundation-under-test",
          "deployment.environment.name": "test",
          team: "pod,casts"
        })

        const parentOf = (name: string) =>
          spans.find((span) => span.spanId === byName(spans, name).parentSpanId)?.name
        const ancestorsOf = (name: string): Array<string> => {
          const parent = parentOf(name)
          return parent === undefined ? [] : [parent, ...ancestorsOf(parent)]
        }
        const serverName = server.name
        expect(parentOf("Organizations.update")).toBe(serverName)
        // The service's transaction is a span of the SQL client, between the service and its calls.
        for (const repositoryCall of [
          "OrganizationRepo.lockForChange",
          "OrganizationAccess.requireRole",
          "OrganizationRepo.update"
        ]) {
          expect(ancestorsOf(repositoryCall), repositoryCall).toEqual([
            "sql.transaction",
            "Organizations.update",
            serverName
          ])
        }
        expect(parentOf("OrganizationRepo.membershipOf")).toBe("OrganizationAccess.requireRole")
        expect(parentOf("Sessions.authenticate")).toBe(serverName)
        expect(parentOf("RateLimiter.consume")).toBe(serverName)
        const updateSql = spans.filter(
          (span) => span.parentSpanId === byName(spans, "OrganizationRepo.update").spanId
        )
        expect(updateSql.map((span) => span.name)).toEqual(["sql.execute"])
        expect(updateSql[0]?.kind).toBe(3)
        expect(updateSql[0]?.attributes["db.system.name"]).toBe("postgresql")
        expect(String(updateSql[0]?.attributes["db.query.text"]).trim()).toMatch(/^UPDATE organizations/)
        // Every span of the request is in the caller's trace and sampled with it.
        expect(spans.every((span) => span.traceId === traceId)).toBe(true)
      })
    )

    it.effect("a caller's unsampled trace stays unsampled: none of its spans is exported", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        const unsampled = "11111111111111111111111111111111"
        const sampled = "22222222222222222222222222222222"
        const first = yield* call("/credential-context", {
          headers: { traceparent: `00-${unsampled}-${callerSpanId}-00` }
        })
        expect(first.status).toBe(401)
        const second = yield* call("/credential-context", {
          headers: { traceparent: `00-${sampled}-${callerSpanId}-01` }
        })
        expect(second.status).toBe(401)
        const spans = yield* traceOf(receiver, sampled)
        expect(byName(spans, "GET /api/v1/credential-context").attributes["http.response.status_code"]).toBe(
          401
        )
        expect(receiver.spans.filter((span) => span.traceId === unsampled)).toEqual([])
      })
    )

    it.effect("a route nobody matched is named by its method alone, never by its path", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        const id = "33333333333333333333333333333333"
        const response = yield* request("/api/v1/no/such/page", {
          headers: { traceparent: `00-${id}-${callerSpanId}-01` }
        })
        expect(response.status).toBe(404)
        const [server] = (yield* traceOf(receiver, id)).filter((span) => span.kind === 2)
        expect(server?.name).toBe("GET")
        expect(server?.attributes["http.route"]).toBeUndefined()
        expect(server?.attributes["http.response.status_code"]).toBe(404)
      })
    )

    it.scoped(
      "fetching a client's metadata document is a client span that carries the trace to its host",
      () =>
        Effect.gen(function* () {
          const receiver = yield* Receiver
          const seen: Array<Http.IncomingHttpHeaders> = []
          const host = yield* documentHost((url, request, response) => {
            seen.push(request.headers)
            response.writeHead(200, { "content-type": "application/json" })
            response.end(
              JSON.stringify({
                client_id: url,
                client_name: "Traced document app",
                redirect_uris: [REDIRECT_URI],
                token_endpoint_auth_method: "none"
              })
            )
          })
          const world = yield* oauthWorld
          const person = yield* signUp("oauth-person")
          yield* createOrganization(person, "Consenting")
          const start = yield* authorizationUrl(world, host.url)
          const id = "55555555555555555555555555555555"
          const page = yield* browserRequest(world, person, start.url, {
            headers: { traceparent: `00-${id}-${callerSpanId}-01`, tracestate: "vendor=opaque-value" }
          })
          expect(page.status).toBe(200)
          const spans = yield* traceOf(receiver, id)
          const server = spans.find((span) => span.kind === 2)
          expect(server?.name).toBe("GET /oauth/authorize")
          const client = spans.find((span) => span.kind === 3 && span.name === "GET")
          expect(client?.attributes).toMatchObject({
            "http.request.method": "GET",
            "server.address": "127.0.0.1",
            "url.full": host.url,
            "http.response.status_code": 200
          })
          // The document's host was told it answers as a child of the client span, in the same trace.
          expect(seen[0]?.traceparent).toBe(`00-${id}-${client?.spanId}-01`)
          expect(seen[0]?.tracestate).toBe("vendor=opaque-value")
          const ancestors = (span: ReceivedSpan | undefined): Array<string> => {
            const parent = spans.find((candidate) => candidate.spanId === span?.parentSpanId)
            return parent === undefined ? [] : [parent.name, ...ancestors(parent)]
          }
          expect(ancestors(client).at(-1)).toBe("GET /oauth/authorize")
        })
    )

    it.effect("passwords, session and API tokens, link tokens and cookies never reach the collector", () =>
      Effect.gen(function* () {
        const receiver = yield* Receiver
        const password = "a-password-nobody-should-see-7Q"
        const account = yield* signUp("secretive", password)
        const organization = yield* createOrganization(account, "Secretive")
        const token = yield* createToken(account, organization.id)
        const bearer = yield* call(`/organizations/${organization.id}`, { bearer: token.token })
        expect(bearer.status).toBe(200)
        const signIn = yield* call("/auth/sign-in", { body: { email: account.email, password } })
        expect(signIn.status).toBe(200)
        // The emailed link's token, in the query string of the page and in the body of the API call.
        const linkToken = yield* linkTokenFor(account.email)
        const page = yield* request(`/verify-email?token=${encodeURIComponent(linkToken)}`)
        expect(page.status).toBe(200)
        const verified = yield* call("/auth/verify-email", { body: { token: linkToken } })
        expect(verified.status).toBe(200)
        // A confidential client's secret, an authorization code, its PKCE verifier, and the tokens.
        const world = yield* oauthWorld
        const client = yield* registerConfidential(world)
        const clientSecret = String(client.client_secret)
        const flow = { client, auth: oauth.ClientSecretBasic(clientSecret) }
        const start = yield* authorizationUrl(world, client.client_id)
        const callback = yield* approve(world, account, start)
        const code = callback.searchParams.get("code") ?? ""
        const tokens = yield* exchange(world, flow, start, callback)
        expect((yield* callApi(world, tokens.access_token, "/credential-context")).status).toBe(200)
        const refreshed = yield* refresh(world, client, tokens.refresh_token ?? "", flow.auth)
        // Everything above has been exported once a later request's span has arrived.
        const marker = "44444444444444444444444444444444"
        yield* call("/credential-context", { headers: { traceparent: `00-${marker}-${callerSpanId}-01` } })
        yield* traceOf(receiver, marker)

        expect(receiver.spans.some((span) => span.name === "GET /verify-email")).toBe(true)
        const exported = receiver.bodies.join("\n")
        const secrets = [
          password,
          account.session,
          token.token,
          linkToken,
          encodeURIComponent(linkToken),
          clientSecret,
          code,
          start.codeVerifier,
          tokens.access_token,
          tokens.refresh_token ?? "",
          refreshed.access_token,
          refreshed.refresh_token ?? ""
        ]
        expect(secrets.every((secret) => secret.length >= 16)).toBe(true)
        for (const secret of secrets) {
          expect(exported.includes(secret), `a secret of ${secret.length} characters was exported`).toBe(
            false
          )
        }
        // No header is recorded at all, so neither are Cookie and Authorization.
        const keys = receiver.spans.flatMap((span) => Object.keys(span.attributes))
        expect(keys.filter((key) => /header|cookie|authorization|url\.query/i.test(key))).toEqual([])
      })
    )
  })
})

interface Recorded {
  readonly name: string
}

/** A tracer that records every span's name, then does what the default one does. */
const recordingSpans = (recorded: Array<Recorded>) =>
  Layer.unwrapEffect(
    Effect.map(Effect.tracer, (native) =>
      Layer.setTracer(
        Tracer.make({
          span: (name, parent, context, links, startTime, kind, options) => {
            recorded.push({ name })
            return native.span(name, parent, context, links, startTime, kind, options)
          },
          context: (f, fiber) => native.context(f, fiber)
        })
      )
    )
  )

describe("with no traces endpoint", () => {
  const recorded: Array<Recorded> = []
  const server = foundationServer(database).pipe(Layer.provide(recordingSpans(recorded)))
  layer(server, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a request makes no span at all: no server span, no service, repository or SQL span", () =>
      Effect.gen(function* () {
        const account = yield* signUp("untraced")
        const organization = yield* createOrganization(account, "Untraced")
        recorded.length = 0
        const response = yield* call(`/organizations/${organization.id}`, {
          method: "PATCH",
          session: account.session,
          body: { version: 1, name: "Renamed" }
        })
        expect(response.status).toBe(200)
        expect(Option.some(recorded.map((span) => span.name))).toEqual(Option.some([]))
      })
    )
  })
})

// Client ID Metadata Documents are outbound requests a stranger chooses (extensions §8): the fetch is
// bounded in time, size and redirects, refuses loopback and private addresses unless the operator
// allows them, takes plain http only on loopback and only then, and trusts extra certificate
// authorities only when configured (OAUTH_EXTRA_CA_FILE). A document must describe itself: its own
// URL as client_id, a public client, acceptable redirect URIs. Every refusal is shown to the person
// as a page and never redirected. The fetch does not depend on the database, so PGlite serves.
import * as Http from "node:http"
import * as Https from "node:https"
import type { AddressInfo } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as oauth from "oauth4webapi"
import { whenMet } from "../support/Needs.js"
import {
  certificatesUnavailable,
  makeTestCertificates,
  type TestCertificates
} from "../support/TestCertificates.js"
import { freshDataDir } from "./support/Backends.js"
import { createOrganization, foundationServer, signUp } from "./support/FoundationClient.js"
import {
  authorizationUrl,
  browserRequest,
  callApi,
  codeFlow,
  type OAuthWorld,
  oauthWorld,
  REDIRECT_URI
} from "./support/OAuthFlow.js"

type Handler = (url: string, request: Http.IncomingMessage, response: Http.ServerResponse) => void

/** A server on loopback (https with `tls`) answering every request with `handler`, for the scope. */
const documentHost = (handler: Handler, tls?: TestCertificates) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: Http.Server; url: string }>((resolve) => {
          let url = ""
          const listener = (request: Http.IncomingMessage, response: Http.ServerResponse) =>
            handler(url, request, response)
          const server =
            tls === undefined
              ? Http.createServer(listener)
              : Https.createServer({ key: tls.key, cert: tls.cert }, listener)
          server.listen(0, "127.0.0.1", () => {
            const scheme = tls === undefined ? "http" : "https"
            url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client.json`
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

const document = (url: string, overrides: Record<string, unknown> = {}) => ({
  client_id: url,
  client_name: "Document app",
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: "none",
  ...overrides
})

const json =
  (body: unknown, headers: Record<string, string> = {}): Handler =>
  (url, _, response) => {
    response.writeHead(200, { "content-type": "application/json", ...headers })
    response.end(JSON.stringify(typeof body === "function" ? body(url) : body))
  }

/** The authorization page for a document client: status, and the page's text. */
const authorizeWith = (world: OAuthWorld, clientId: string) =>
  Effect.gen(function* () {
    const person = yield* signUp("document-person")
    const start = yield* authorizationUrl(world, clientId)
    return yield* browserRequest(world, person, start.url)
  })

const expectShownRefusal = (
  answer: { status: number; location: string | null; text: string },
  reason: string
) => {
  expect(answer.status).toBe(400)
  expect(answer.location).toBeNull()
  expect(answer.text).toContain(reason)
}

const embedded = Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))
const certificates = certificatesUnavailable === undefined ? makeTestCertificates("OAuth test CA") : undefined
const strangers = certificatesUnavailable === undefined ? makeTestCertificates("Untrusted CA") : undefined

describe("metadata documents without the operator's allowance", () => {
  layer(foundationServer(embedded), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a document on a loopback address is refused, over http or https", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const plain = yield* documentHost(json((url: string) => document(url)))
          expectShownRefusal(yield* authorizeWith(world, plain.url), "must be https")
          if (certificates !== undefined) {
            const secure = yield* documentHost(
              json((url: string) => document(url)),
              certificates
            )
            expectShownRefusal(yield* authorizeWith(world, secure.url), "its address is not allowed")
          }
        })
      )
    )
  })
})

describe("metadata documents on loopback, allowed for development and tests", () => {
  layer(
    foundationServer(embedded, {
      OAUTH_ALLOW_PRIVATE_ADDRESSES: "true",
      OAUTH_REGISTRATION_RATE_LIMIT: "1000",
      ...(certificates === undefined ? {} : { OAUTH_EXTRA_CA_FILE: certificates.caFile })
    }),
    { timeout: 120_000, excludeTestServices: true }
  )((it) => {
    it.effect(
      "a document that names another client_id, holds a secret or lacks redirect URIs is refused",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const cases: ReadonlyArray<readonly [(url: string) => unknown, string]> = [
              [(url) => document(url, { client_id: `${url}x` }), "names another client_id"],
              [(url) => document(url, { client_secret: "s3cret" }), "public client"],
              [
                (url) => document(url, { token_endpoint_auth_method: "client_secret_basic" }),
                "public client"
              ],
              [(url) => document(url, { redirect_uris: [] }), "redirect_uris"],
              [(url) => document(url, { redirect_uris: ["http://evil.example/cb"] }), "redirect URI"],
              [() => ["not", "an", "object"], "is not a JSON object"]
            ]
            for (const [body, reason] of cases) {
              const host = yield* documentHost(json(body))
              expectShownRefusal(yield* authorizeWith(world, host.url), reason)
            }
          })
        )
    )

    it.effect("a redirect, an error status, a body over the limit or not JSON is refused", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const target = yield* documentHost(json((url: string) => document(url)))
          const cases: ReadonlyArray<readonly [Handler, string]> = [
            [
              (_, __, response) => {
                response.writeHead(302, { location: target.url })
                response.end()
              },
              "answered 302"
            ],
            [
              (_, __, response) => {
                response.writeHead(404)
                response.end()
              },
              "answered 404"
            ],
            [
              (url, _, response) => {
                response.writeHead(200, { "content-type": "application/json" })
                response.end(JSON.stringify(document(url, { padding: "x".repeat(6000) })))
              },
              "larger than"
            ],
            [
              (url, _, response) => {
                // No declared length: the limit is enforced while the body arrives.
                response.writeHead(200, { "content-type": "application/json" })
                response.write(JSON.stringify(document(url)).slice(0, -1))
                response.end(`, "padding": "${"x".repeat(6000)}"}`)
              },
              "larger than"
            ],
            [
              (_, __, response) => {
                response.writeHead(200, { "content-type": "application/json" })
                response.end("{ not json")
              },
              "not JSON"
            ]
          ]
          for (const [handler, reason] of cases) {
            const host = yield* documentHost(handler)
            expectShownRefusal(yield* authorizeWith(world, host.url), reason)
          }
        })
      )
    )

    it.effect(
      "a document that does not answer within a few seconds is refused",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const world = yield* oauthWorld
            // Headers at once, then the body trickles: the deadline covers the whole answer.
            const host = yield* documentHost((_, __, response) => {
              response.writeHead(200, { "content-type": "application/json" })
              response.write("{")
            })
            const started = Date.now()
            expectShownRefusal(yield* authorizeWith(world, host.url), "no complete answer within 3000 ms")
            // Well before the 15 s handler deadline, with room for a loaded machine.
            expect(Date.now() - started).toBeLessThan(10_000)
          })
        ),
      20_000
    )

    it.effect("a client_id URL with a query, without a path, or longer than 160 characters is refused", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const host = yield* documentHost(json((url: string) => document(url)))
          const origin = new URL(host.url).origin
          expectShownRefusal(yield* authorizeWith(world, `${host.url}?v=1`), "without a query")
          expectShownRefusal(yield* authorizeWith(world, `${origin}/`), "by its path")
          expectShownRefusal(
            yield* authorizeWith(world, `${origin}/${"x".repeat(160)}`),
            "1 to 160 characters"
          )
        })
      )
    )

    it.effect(
      "an https document signed by the configured extra CA is a client; another CA's is refused",
      whenMet([certificatesUnavailable], () =>
        Effect.scoped(
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("https-document")
            const organization = yield* createOrganization(person, "Https Org")
            const secure = yield* documentHost(
              json((url: string) => document(url, { client_name: "Https app" })),
              certificates
            )
            const client: oauth.Client = { client_id: secure.url, token_endpoint_auth_method: "none" }
            const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
            expect((yield* callApi(world, tokens.access_token, "/credential-context")).json).toMatchObject({
              clientId: secure.url
            })
            if (strangers !== undefined) {
              const untrusted = yield* documentHost(
                json((url: string) => document(url)),
                strangers
              )
              expectShownRefusal(yield* authorizeWith(world, untrusted.url), "cannot fetch it")
            }
          })
        )
      )
    )
  })
})

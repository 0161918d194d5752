// A NUL character or a lone surrogate in any input of the authorization server (the authorization
// request's query and form, the token and revocation forms, an HTTP Basic credential, a registration's
// JSON, a fetched metadata document) is refused where it is decoded: 400 (a page, `invalid_request`
// or `invalid_client_metadata`) naming the field, nothing stored, nothing logged as a defect. Before,
// each reached PostgreSQL (which stores neither in `text` or `jsonb`) and came back as a 500.
// PGlite and PostgreSQL.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { request, type TestResponse } from "../support/TestServer.js"
import { freshDataDir, hasPostgres } from "./support/Backends.js"
import {
  foundationServer,
  logLines,
  PUBLIC_ORIGIN,
  postgresFoundationServer,
  signUp,
  sqlQuery,
  TestDatabaseUrl
} from "./support/FoundationClient.js"
import {
  authorizationUrl,
  browserRequest,
  oauthWorld,
  REDIRECT_URI,
  registerPublic
} from "./support/OAuthFlow.js"

/** The rows of the OAuth tables (PostgreSQL only: PGlite's are not reachable from the test). */
class OAuthRows extends Context.Tag("OAuthRows")<OAuthRows, Effect.Effect<unknown>>() {}

const countOAuthRows = sqlQuery(
  `SELECT (SELECT count(*) FROM oauth_clients)::int AS clients, (SELECT count(*) FROM oauth_codes)::int AS codes,
    (SELECT count(*) FROM oauth_grants)::int AS grants`
)

/** A loopback server answering every request with `body(url)` as JSON, for the scope. */
const documentHost = (body: (url: string) => unknown) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: Http.Server; url: string }>((resolve) => {
          let url = ""
          const server = Http.createServer((_, response) => {
            response.writeHead(200, { "content-type": "application/json" })
            response.end(JSON.stringify(body(url)))
          })
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

const form = (path: string, fields: Record<string, string>, authorization?: string) =>
  request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(authorization === undefined ? {} : { authorization })
    },
    body: new URLSearchParams(fields).toString()
  })

const register = (body: string) =>
  request("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body })

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`

const NUL = "must not contain the NUL character"
const SURROGATE = "must not contain a lone surrogate"

// Soft assertions: one run lists every input that is answered wrongly.

/** An OAuth JSON error naming `field` and saying `problem`. */
const expectOAuthError = (
  answer: TestResponse,
  status: number,
  error: string,
  field: string,
  problem: string
) => {
  const body = answer.json as { error?: string; error_description?: string } | undefined
  expect.soft(answer.status, answer.text).toBe(status)
  expect.soft(body?.error, answer.text).toBe(error)
  expect.soft(body?.error_description, answer.text).toContain(`${field}: ${problem}`)
}

const settings = { OAUTH_ALLOW_PRIVATE_ADDRESSES: "true", OAUTH_REGISTRATION_RATE_LIMIT: "1000" }
const servers = [
  {
    name: "PGlite",
    skip: false,
    layer: Layer.merge(
      foundationServer(
        Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir })),
        settings
      ),
      Layer.succeed(OAuthRows, Effect.succeed("not counted on PGlite"))
    )
  },
  {
    name: "PostgreSQL",
    skip: !hasPostgres,
    layer: Layer.effect(
      OAuthRows,
      Effect.map(TestDatabaseUrl, (url) => countOAuthRows.pipe(Effect.provideService(TestDatabaseUrl, url)))
    ).pipe(Layer.provideMerge(postgresFoundationServer(settings)))
  }
]

for (const server of servers) {
  describe.skipIf(server.skip)(
    `NUL and lone surrogates at the authorization server on ${server.name}`,
    () => {
      layer(server.layer, { timeout: 120_000, excludeTestServices: true })((it) => {
        it.effect("every input: 400 naming the field, nothing stored, nothing logged as a defect", () =>
          Effect.scoped(
            Effect.gen(function* () {
              const world = yield* oauthWorld
              const person = yield* signUp("oauth-nul")
              const client = yield* registerPublic(world, "Nul probe app")
              const rows = yield* OAuthRows
              const before = yield* rows
              const defectsBefore = logLines.filter((line) => line.includes("Unhandled failure")).length

              // The authorization request's query: a page (never a redirect), naming the parameter.
              for (const [field, value] of [
                ["client_id", "\u0000"],
                ["client_id", `${client.client_id}\u0000`],
                ["redirect_uri", `${REDIRECT_URI}\u0000`],
                ["state", "a\u0000b"],
                ["scope", "organizations:read\u0000"]
              ] as const) {
                const start = yield* authorizationUrl(world, client.client_id, { [field]: value })
                const page = yield* browserRequest(world, person, start.url)
                expect.soft(page.status, `${field} ${page.text.slice(0, 300)}`).toBe(400)
                expect.soft(page.location).toBeNull()
                expect.soft(page.text).toContain(`${field}: ${NUL}`)
              }
              // Its form post, as the person's browser sends it.
              const decision = yield* browserRequest(world, person, `${PUBLIC_ORIGIN}/oauth/authorize`, {
                method: "POST",
                headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_ORIGIN },
                body: new URLSearchParams({ client_id: "\u0000", decision: "approve" }).toString()
              })
              expect.soft(decision.status, decision.text.slice(0, 300)).toBe(400)
              expect.soft(decision.text).toContain(`client_id: ${NUL}`)

              // The token and revocation forms.
              expectOAuthError(
                yield* form("/oauth/token", {
                  grant_type: "refresh_token",
                  refresh_token: "x",
                  client_id: "\u0000"
                }),
                400,
                "invalid_request",
                "client_id",
                NUL
              )
              expectOAuthError(
                yield* form("/oauth/token", {
                  grant_type: "refresh_token",
                  refresh_token: "x\u0000",
                  client_id: "x"
                }),
                400,
                "invalid_request",
                "refresh_token",
                NUL
              )
              expectOAuthError(
                yield* form("/oauth/revoke", { token: "x", client_id: `${client.client_id}\u0000` }),
                400,
                "invalid_request",
                "client_id",
                NUL
              )

              // HTTP Basic: the id form-encoded (%00) or raw, at both endpoints.
              for (const authorization of [
                basic("%00", "secret"),
                basic("\u0000", "secret"),
                basic("cli_x", "s%00")
              ]) {
                const field = authorization === basic("cli_x", "s%00") ? "client_secret" : "client_id"
                expectOAuthError(
                  yield* form(
                    "/oauth/token",
                    { grant_type: "refresh_token", refresh_token: "x" },
                    authorization
                  ),
                  400,
                  "invalid_request",
                  `${field} (Authorization: Basic)`,
                  NUL
                )
                expectOAuthError(
                  yield* form("/oauth/revoke", { token: "x" }, authorization),
                  400,
                  "invalid_request",
                  `${field} (Authorization: Basic)`,
                  NUL
                )
              }

              // Registration: any string of the JSON, keys and unknown fields included.
              const valid = { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }
              const registrations: ReadonlyArray<readonly [string, string, string]> = [
                [JSON.stringify({ ...valid, client_name: "a\u0000b" }), "client_name", NUL],
                [JSON.stringify({ ...valid, client_name: "a\ud800b" }), "client_name", SURROGATE],
                [
                  JSON.stringify({ ...valid, redirect_uris: [`${REDIRECT_URI}\u0000`] }),
                  "redirect_uris.0",
                  NUL
                ],
                [
                  JSON.stringify({ ...valid, contacts: ["ops@example.com", "\udc00"] }),
                  "contacts.1",
                  SURROGATE
                ],
                [JSON.stringify({ ...valid, logo: { "k\u0000": 1 } }), "a key in logo", NUL],
                // The escapes as a client writes them by hand.
                [`{"redirect_uris":["${REDIRECT_URI}"],"client_name":"\\ud800"}`, "client_name", SURROGATE],
                [`{"redirect_uris":["${REDIRECT_URI}"],"client_name":"\\u0000"}`, "client_name", NUL]
              ]
              for (const [body, field, problem] of registrations) {
                expectOAuthError(yield* register(body), 400, "invalid_client_metadata", field, problem)
              }

              // A fetched metadata document: refused as a client, shown on a page, naming its field.
              for (const [name, problem] of [
                ["Doc\u0000app", NUL],
                ["Doc\ud800app", SURROGATE]
              ] as const) {
                const host = yield* documentHost((url) => ({
                  client_id: url,
                  client_name: name,
                  redirect_uris: [REDIRECT_URI],
                  token_endpoint_auth_method: "none"
                }))
                const start = yield* authorizationUrl(world, host.url)
                const page = yield* browserRequest(world, person, start.url)
                expect.soft(page.status, page.text.slice(0, 300)).toBe(400)
                expect.soft(page.text).toContain(`client_name: ${problem}`)
                const token = yield* form("/oauth/token", {
                  grant_type: "refresh_token",
                  refresh_token: "x",
                  client_id: host.url
                })
                expect.soft(token.status, token.text).toBe(401)
                expect.soft(token.json).toMatchObject({ error: "invalid_client" })
              }

              expect.soft(yield* rows).toEqual(before)
              expect
                .soft(logLines.filter((line) => line.includes("Unhandled failure")).length)
                .toBe(defectsBefore)
            })
          )
        )
      })
    }
  )
}

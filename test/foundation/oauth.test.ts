// Delegated access (extensions §8) through the real server with oauth4webapi as the strict,
// independent client: the metadata documents, dynamic registration (public and confidential), a
// Client ID Metadata Document served on loopback, the whole code flow with PKCE, `iss` and
// `resource`, the access token as a bearer credential of §3, refresh rotation with reuse detection,
// and revocation. On PGlite and PostgreSQL.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as oauth from "oauth4webapi"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  call,
  createOrganization,
  foundationServer,
  logLines,
  PUBLIC_ORIGIN,
  signUp
} from "./support/FoundationClient.js"
import {
  API_RESOURCE,
  approve,
  authorizationUrl,
  callApi,
  codeFlow,
  exchange,
  oauthErrorOf,
  oauthWorld,
  REDIRECT_URI,
  refresh,
  registerConfidential,
  registerPublic,
  revoke
} from "./support/OAuthFlow.js"

/** Serves one JSON document on loopback for the scope; `body` gets the document's own URL. */
const documentServer = (body: (url: string) => unknown, headers: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: Http.Server; url: string }>((resolve) => {
          let url = ""
          const server = Http.createServer((_, response) => {
            response.writeHead(200, { "content-type": "application/json", ...headers })
            response.end(JSON.stringify(body(url)))
          })
          server.listen(0, "127.0.0.1", () => {
            url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client.json`
            resolve({ server, url })
          })
        })
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

for (const backend of backends) {
  describeNeeding(backend.missing)(`OAuth on ${backend.name}`, () => {
    layer(
      foundationServer(backend.database, {
        OAUTH_ALLOW_PRIVATE_ADDRESSES: "true",
        OAUTH_REGISTRATION_RATE_LIMIT: "1000"
      }),
      {
        timeout: 120_000,
        excludeTestServices: true
      }
    )((it) => {
      it.effect("RFC 8414 metadata says what extensions §8 requires", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          expect(world.as.issuer).toBe(PUBLIC_ORIGIN)
          expect(world.as.code_challenge_methods_supported).toEqual(["S256"])
          expect(world.as.authorization_response_iss_parameter_supported).toBe(true)
          expect(world.as.client_id_metadata_document_supported).toBe(true)
          expect(world.as.scopes_supported).toEqual(["organizations:read", "organizations:write"])
          expect(world.as.token_endpoint).toBe(`${PUBLIC_ORIGIN}/oauth/token`)
          expect(world.as.registration_endpoint).toBe(`${PUBLIC_ORIGIN}/oauth/register`)
          expect(world.as.revocation_endpoint).toBe(`${PUBLIC_ORIGIN}/oauth/revoke`)
          expect(world.as.response_types_supported).toEqual(["code"])
          expect(world.as.grant_types_supported).toEqual(["authorization_code", "refresh_token"])
        })
      )

      it.effect("RFC 9728 metadata of /api/v1 names the issuer, and a 401 points to it", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const resource = new URL(API_RESOURCE)
          const metadata = yield* Effect.promise(async () =>
            oauth.processResourceDiscoveryResponse(
              resource,
              await oauth.resourceDiscoveryRequest(resource, world.options)
            )
          )
          expect(metadata.authorization_servers).toEqual([PUBLIC_ORIGIN])
          expect(metadata.scopes_supported).toEqual(["organizations:read", "organizations:write"])
          expect(metadata.bearer_methods_supported).toEqual(["header"])
          const unknown = yield* callApi(world, "foa_not-a-token", "/credential-context")
          expect(unknown.status).toBe(401)
          expect(unknown.challenges[0]?.scheme).toBe("bearer")
          expect(unknown.challenges[0]?.parameters).toMatchObject({
            error: "invalid_token",
            resource_metadata: `${PUBLIC_ORIGIN}/.well-known/oauth-protected-resource/api/v1`
          })
          // Without any credential the challenge still says where to start; the body keeps the envelope.
          const none = yield* call("/credential-context")
          expect(none.status).toBe(401)
          expect(none.headers.get("www-authenticate")).toBe(
            `Bearer resource_metadata="${PUBLIC_ORIGIN}/.well-known/oauth-protected-resource/api/v1"`
          )
          expect(none.json).toMatchObject({ defined: true, code: "UNAUTHORIZED", status: 401 })
          const missing = yield* Effect.promise(() =>
            world.fetch(`${PUBLIC_ORIGIN}/.well-known/oauth-protected-resource/api/v2`)
          )
          expect(missing.status).toBe(404)
        })
      )

      it.effect(
        "a public client registers, a person approves, the code with PKCE, iss and resource becomes a token that reads the organization",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("oauth-reader")
            const organization = yield* createOrganization(person, "Delegated Org")
            const client = yield* registerPublic(world, "Reader app")
            expect(client.client_id).toMatch(/^cli_/)
            expect(client.client_secret).toBeUndefined()
            const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
            expect(tokens.token_type).toBe("bearer")
            expect(tokens.scope).toBe("organizations:read")
            expect(tokens.expires_in).toBe(3600)
            expect(tokens.access_token).toMatch(/^foa_/)
            expect(tokens.refresh_token).toMatch(/^for_/)

            const read = yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)
            expect(read.status).toBe(200)
            expect(read.json).toMatchObject({ id: organization.id, name: "Delegated Org" })
            const context = yield* callApi(world, tokens.access_token, "/credential-context")
            expect(context.json).toEqual({
              principalKind: "oauth",
              organization: { id: organization.id, name: "Delegated Org" },
              grantedScopes: ["organizations:read"],
              clientId: client.client_id
            })
            // A delegated token is a bearer credential: session-only operations refuse it (403).
            const profile = yield* callApi(world, tokens.access_token, "/profile")
            expect(profile.status).toBe(403)
          })
      )

      it.effect("the token endpoint's answers are never cached", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("oauth-cache")
          yield* createOrganization(person, "Cache Org")
          const client = yield* registerPublic(world)
          const start = yield* authorizationUrl(world, client.client_id)
          const callback = yield* approve(world, person, start)
          const params = oauth.validateAuthResponse(world.as, client, callback, start.state)
          const response = yield* Effect.promise(() =>
            oauth.authorizationCodeGrantRequest(
              world.as,
              client,
              oauth.None(),
              params,
              REDIRECT_URI,
              start.codeVerifier,
              world.options
            )
          )
          expect(response.status).toBe(200)
          expect(response.headers.get("cache-control")).toBe("no-store")
          expect(callback.searchParams.get("iss")).toBe(PUBLIC_ORIGIN)
          expect(callback.searchParams.get("state")).toBe(start.state)
        })
      )

      it.effect(
        "a confidential client authenticates with client_secret_basic and writes with organizations:write",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("oauth-writer")
            const organization = yield* createOrganization(person, "Writable Org")
            const client = yield* registerConfidential(world, "Writer app")
            expect(String(client.client_secret)).toMatch(/^fcs_/)
            const auth = oauth.ClientSecretBasic(String(client.client_secret))
            const tokens = yield* codeFlow(world, person, {
              client,
              auth,
              organizationId: organization.id,
              extra: { scope: "organizations:read organizations:write" }
            })
            expect(tokens.scope).toBe("organizations:read organizations:write")
            const written = yield* callApi(
              world,
              tokens.access_token,
              `/organizations/${organization.id}`,
              "PATCH",
              {
                version: 1,
                name: "Written by an app"
              }
            )
            expect(written.status).toBe(200)
            expect(written.json).toMatchObject({ name: "Written by an app", version: 2 })
            // Without its secret, the same client is refused (401, Basic challenge).
            const wrong = yield* oauthErrorOf(
              refresh(world, client, tokens.refresh_token ?? "", oauth.ClientSecretBasic("wrong"))
            )
            expect(wrong).toMatchObject({ code: "basic", status: 401 })
            // Nor may it pose as a public client.
            const asPublic = yield* oauthErrorOf(
              refresh(world, client, tokens.refresh_token ?? "", oauth.None())
            )
            expect(asPublic).toMatchObject({ code: "invalid_client", status: 401 })
          })
      )

      it.effect("a Client ID Metadata Document served on loopback is a client", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("oauth-cimd")
            const organization = yield* createOrganization(person, "Document Org")
            const document = yield* documentServer(
              (url) => ({
                client_id: url,
                client_name: "Document app",
                redirect_uris: [REDIRECT_URI],
                token_endpoint_auth_method: "none"
              }),
              { "cache-control": "max-age=600" }
            )
            const client: oauth.Client = { client_id: document.url, token_endpoint_auth_method: "none" }
            const start = yield* authorizationUrl(world, document.url)
            const page = yield* Effect.promise(() =>
              world.fetch(start.url, {
                headers: { cookie: `__Secure-service.session_token=${person.session}` }
              })
            )
            const html = yield* Effect.promise(() => page.text())
            expect(page.status).toBe(200)
            // The page names the app as it names itself, says it is unverified, and where it lives.
            expect(html).toContain("Allow <bdi>Document app</bdi> to act for you?")
            expect(html).toContain("(unverified)")
            expect(html).toContain("127.0.0.1")
            const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
            const read = yield* callApi(world, tokens.access_token, "/credential-context")
            expect(read.json).toMatchObject({ principalKind: "oauth", clientId: document.url })
            const refreshed = yield* refresh(world, client, tokens.refresh_token ?? "")
            expect(refreshed.access_token).not.toBe(tokens.access_token)
          })
        )
      )

      it.effect("refresh tokens rotate; presenting a used one revokes the whole connection", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("oauth-rotate")
          const organization = yield* createOrganization(person, "Rotating Org")
          const client = yield* registerPublic(world)
          const first = yield* codeFlow(world, person, { client, organizationId: organization.id })
          const second = yield* refresh(world, client, first.refresh_token ?? "")
          expect(second.refresh_token).not.toBe(first.refresh_token)
          expect(second.access_token).not.toBe(first.access_token)
          // The rotation leaves the earlier access token alive until it expires.
          expect(
            (yield* callApi(world, first.access_token, `/organizations/${organization.id}`)).status
          ).toBe(200)
          expect(
            (yield* callApi(world, second.access_token, `/organizations/${organization.id}`)).status
          ).toBe(200)

          const reused = yield* oauthErrorOf(refresh(world, client, first.refresh_token ?? ""))
          expect(reused).toMatchObject({ code: "invalid_grant", status: 400 })
          expect(reused.description).toContain("already used")
          for (const token of [first.access_token, second.access_token]) {
            const after = yield* callApi(world, token, `/organizations/${organization.id}`)
            expect(after.status).toBe(401)
            expect(after.challenges[0]?.parameters.error).toBe("invalid_token")
          }
          const latest = yield* oauthErrorOf(refresh(world, client, second.refresh_token ?? ""))
          expect(latest.code).toBe("invalid_grant")
        })
      )

      it.effect("a refresh may narrow the scope of the new access token, never widen it", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("oauth-narrow")
          const organization = yield* createOrganization(person, "Narrow Org")
          const client = yield* registerPublic(world)
          const tokens = yield* codeFlow(world, person, {
            client,
            organizationId: organization.id,
            extra: { scope: "organizations:read" }
          })
          const widened = yield* oauthErrorOf(
            refresh(world, client, tokens.refresh_token ?? "", oauth.None(), { scope: "organizations:write" })
          )
          expect(widened.code).toBe("invalid_scope")
          const writer = yield* registerPublic(world)
          const both = yield* codeFlow(world, person, {
            client: writer,
            organizationId: organization.id,
            extra: { scope: "organizations:read organizations:write" }
          })
          const narrowed = yield* refresh(world, writer, both.refresh_token ?? "", oauth.None(), {
            scope: "organizations:read"
          })
          expect(narrowed.scope).toBe("organizations:read")
          const context = yield* callApi(world, narrowed.access_token, "/credential-context")
          expect(context.json).toMatchObject({ grantedScopes: ["organizations:read"] })
          // The grant keeps both scopes: the next refresh, asking nothing, gets both again.
          const again = yield* refresh(world, writer, narrowed.refresh_token ?? "")
          expect(again.scope).toBe("organizations:read organizations:write")
        })
      )

      it.effect(
        "revoking a refresh token ends the connection; revoking an access token ends only that token",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("oauth-revoke")
            const organization = yield* createOrganization(person, "Revoked Org")
            const client = yield* registerConfidential(world)
            const auth = oauth.ClientSecretBasic(String(client.client_secret))
            const tokens = yield* codeFlow(world, person, { client, auth, organizationId: organization.id })
            yield* revoke(world, client, tokens.access_token, auth)
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(401)
            const renewed = yield* refresh(world, client, tokens.refresh_token ?? "", auth)
            expect(
              (yield* callApi(world, renewed.access_token, `/organizations/${organization.id}`)).status
            ).toBe(200)

            yield* revoke(world, client, renewed.refresh_token ?? "", auth)
            expect(
              (yield* callApi(world, renewed.access_token, `/organizations/${organization.id}`)).status
            ).toBe(401)
            expect(
              (yield* oauthErrorOf(refresh(world, client, renewed.refresh_token ?? "", auth))).code
            ).toBe("invalid_grant")
            // RFC 7009: an unknown token, or another client's, is answered 200 and changes nothing.
            yield* revoke(world, client, "for_not-a-token", auth)
            const other = yield* registerPublic(world)
            const theirs = yield* codeFlow(world, person, { client: other, organizationId: organization.id })
            yield* revoke(world, client, theirs.refresh_token ?? "", auth)
            expect(
              (yield* callApi(world, theirs.access_token, `/organizations/${organization.id}`)).status
            ).toBe(200)
          })
      )

      it.effect("the code is exchanged by the client that asked, for the resource it named", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("oauth-exchange")
          yield* createOrganization(person, "Exchange Org")
          const client = yield* registerPublic(world)
          const start = yield* authorizationUrl(world, client.client_id)
          const callback = yield* approve(world, person, start)
          const tokens = yield* exchange(world, { client }, start, callback)
          expect(tokens.access_token).toMatch(/^foa_/)
        })
      )
    })
  })
}

describe("OAuth secrets and the log", () => {
  layer(foundationServer(backends[0]?.database ?? Effect.die("no backend"), { ACCESS_LOG: "true" }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("no code, token or client secret reaches the log or the access log", () =>
      Effect.gen(function* () {
        const written: Array<string> = []
        const write = process.stdout.write.bind(process.stdout)
        // The access log writes straight to stdout: every line is kept while the flow runs.
        process.stdout.write = ((chunk: string | Uint8Array, ...rest: Array<never>) => {
          written.push(String(chunk))
          return write(chunk, ...rest)
        }) as typeof process.stdout.write
        const secrets = yield* Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("oauth-log")
          const organization = yield* createOrganization(person, "Logged Org")
          const client = yield* registerConfidential(world, "Logged app")
          const auth = oauth.ClientSecretBasic(String(client.client_secret))
          const start = yield* authorizationUrl(world, client.client_id)
          const callback = yield* approve(world, person, start)
          const tokens = yield* exchange(world, { client, auth }, start, callback)
          const renewed = yield* refresh(world, client, tokens.refresh_token ?? "", auth)
          yield* callApi(world, renewed.access_token, `/organizations/${organization.id}`)
          yield* revoke(world, client, renewed.refresh_token ?? "", auth)
          return [
            String(client.client_secret),
            callback.searchParams.get("code") ?? "",
            tokens.access_token,
            tokens.refresh_token ?? "",
            renewed.access_token,
            renewed.refresh_token ?? "",
            person.session
          ]
        }).pipe(Effect.ensuring(Effect.sync(() => (process.stdout.write = write))))
        const log = [...written, ...logLines].join("\n")
        expect(written.some((line) => line.includes("POST /oauth/token 200"))).toBe(true)
        for (const secret of secrets) {
          expect(secret.length).toBeGreaterThan(20)
          expect(log).not.toContain(secret)
        }
      })
    )
  })
})

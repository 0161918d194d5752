// Every refusal of extensions §8, with oauth4webapi as the client where a client is involved: bad
// clients, a redirect URI that does not match (shown, never followed), the errors sent back to the
// redirect URI, a wrong verifier, a reused or expired code, a wrong resource, a missing scope, a
// demoted or removed person, a revoked connection, the decision's protection against other sites,
// and OAuth's error format at every endpoint. On PGlite and PostgreSQL (what needs a row aged or
// rewritten, on PostgreSQL).
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as oauth from "oauth4webapi"
import { describeNeeding } from "../support/Needs.js"
import { backends, postgresUnavailable } from "./support/Backends.js"
import {
  call,
  createOrganization,
  foundationServer,
  isEnvelope,
  join,
  PUBLIC_ORIGIN,
  postgresFoundationServer,
  signUp,
  signUpVerified,
  sqlQuery
} from "./support/FoundationClient.js"
import {
  API_RESOURCE,
  approve,
  authorizationUrl,
  browserRequest,
  callApi,
  codeFlow,
  consentPageFor,
  decide,
  exchange,
  type OAuthWorld,
  oauthErrorOf,
  oauthWorld,
  offeredOrganizations,
  REDIRECT_URI,
  refresh,
  registerConfidential,
  registerPublic
} from "./support/OAuthFlow.js"
import { inOneWindow, inOneWindowSameKeys } from "./support/RateWindows.js"

const generous = { OAUTH_REGISTRATION_RATE_LIMIT: "1000", OAUTH_TOKEN_RATE_LIMIT: "1000" }

/** A raw form post to an OAuth endpoint. */
const post = (world: OAuthWorld, path: string, body: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await world.fetch(`${PUBLIC_ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body
    })
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text === "" ? undefined : JSON.parse(text)
    }
  })

/** The error sent back to the client at its redirect URI, as oauth4webapi reads it. */
const redirectedError = (world: OAuthWorld, client: oauth.Client, location: string | null, state: string) =>
  Effect.sync(() => {
    expect(location).not.toBeNull()
    const url = new URL(location ?? "")
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI)
    try {
      oauth.validateAuthResponse(world.as, client, url, state)
      return "none"
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) return error.error
      throw error
    }
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`OAuth refusals on ${backend.name}`, () => {
    layer(foundationServer(backend.database, generous), { timeout: 120_000, excludeTestServices: true })(
      (it) => {
        it.effect("an unknown or missing client is shown as an error page and never redirected to", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("bad-client")
            for (const clientId of ["cli_unknown", ""]) {
              const start = yield* authorizationUrl(world, clientId)
              const answer = yield* browserRequest(world, person, start.url)
              expect(answer.status).toBe(400)
              expect(answer.location).toBeNull()
              expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8")
              expect(answer.headers.get("cache-control")).toBe("no-store")
              expect(answer.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
              expect(answer.text).toContain("This request cannot go on")
            }
            // At the token endpoint an unknown client is invalid_client, 401.
            const unknown = yield* oauthErrorOf(
              refresh(world, { client_id: "cli_unknown", token_endpoint_auth_method: "none" }, "for_x")
            )
            expect(unknown).toMatchObject({ code: "invalid_client", status: 401 })
          })
        )

        it.effect("a redirect URI that does not match is shown as an error page and never followed", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("bad-redirect")
            const client = yield* registerPublic(world)
            for (const redirect of [
              "http://127.0.0.1:9/elsewhere",
              "https://attacker.example/callback",
              `${REDIRECT_URI}?x=1`
            ]) {
              const start = yield* authorizationUrl(world, client.client_id, { redirect_uri: redirect })
              const answer = yield* browserRequest(world, person, start.url)
              expect(answer.status, redirect).toBe(400)
              expect(answer.location).toBeNull()
              expect(answer.text).toContain("redirect_uri is not one this client registered")
            }
            const start = yield* authorizationUrl(world, client.client_id)
            start.url.searchParams.delete("redirect_uri")
            expect((yield* browserRequest(world, person, start.url)).status).toBe(400)
            // RFC 8252 §7.3: a loopback redirect URI may come back on another port.
            const otherPort = yield* authorizationUrl(world, client.client_id, {
              redirect_uri: "http://127.0.0.1:54321/callback"
            })
            expect((yield* browserRequest(world, person, otherPort.url)).status).toBe(200)
          })
        )

        it.effect("a repeated parameter is shown as an error page", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("repeated")
            const client = yield* registerPublic(world)
            const start = yield* authorizationUrl(world, client.client_id)
            start.url.searchParams.append("scope", "organizations:write")
            const answer = yield* browserRequest(world, person, start.url)
            expect(answer.status).toBe(400)
            expect(answer.location).toBeNull()
            expect(answer.text).toContain("appears more than once")
          })
        )

        it.effect(
          "every other authorization error goes back to the redirect URI with error, state and iss",
          () =>
            Effect.gen(function* () {
              const world = yield* oauthWorld
              const person = yield* signUp("redirected")
              const client = yield* registerPublic(world)
              const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
                [{ response_type: "token" }, "unsupported_response_type"],
                [{ code_challenge: "" }, "invalid_request"],
                [{ code_challenge: "too-short" }, "invalid_request"],
                [{ code_challenge_method: "plain" }, "invalid_request"],
                [{ resource: "https://elsewhere.example/api" }, "invalid_target"],
                // Resources are compared exactly: a path under /api/v1 is not /api/v1.
                [{ resource: `${API_RESOURCE}/organizations` }, "invalid_target"],
                [{ scope: "organizations:delete" }, "invalid_scope"],
                [{ scope: "organizations:read  organizations:write" }, "invalid_scope"],
                [{ scope: "" }, "invalid_scope"]
              ]
              for (const [extra, expected] of cases) {
                const start = yield* authorizationUrl(world, client.client_id, extra)
                const answer = yield* browserRequest(world, person, start.url)
                expect(answer.status, JSON.stringify(extra)).toBe(303)
                const location = new URL(answer.location ?? "")
                expect(location.searchParams.get("state")).toBe(start.state)
                expect(location.searchParams.get("iss")).toBe(PUBLIC_ORIGIN)
                expect(
                  yield* redirectedError(world, client, answer.location, start.state),
                  JSON.stringify(extra)
                ).toBe(expected)
              }
            })
        )

        it.effect("without a session the browser is sent to the sign-in page and back", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const client = yield* registerPublic(world)
            const start = yield* authorizationUrl(world, client.client_id)
            const answer = yield* browserRequest(world, undefined, start.url)
            expect(answer.status).toBe(303)
            const location = new URL(answer.location ?? "", PUBLIC_ORIGIN)
            expect(location.pathname).toBe("/sign-in")
            expect(location.searchParams.get("return_to")).toBe(`${start.url.pathname}${start.url.search}`)
          })
        )

        it.effect("a person who denies sends the client access_denied", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("denier")
            yield* createOrganization(person, "Denied Org")
            const client = yield* registerPublic(world)
            const start = yield* authorizationUrl(world, client.client_id)
            const callback = yield* approve(world, person, start, { decision: "deny" })
            expect(yield* redirectedError(world, client, callback.href, start.state)).toBe("access_denied")
          })
        )

        it.effect(
          "the decision is refused from another site, without its form token, or from another session",
          () =>
            Effect.gen(function* () {
              const world = yield* oauthWorld
              const person = yield* signUp("csrf")
              yield* createOrganization(person, "Guarded Org")
              const client = yield* registerPublic(world)
              const start = yield* authorizationUrl(world, client.client_id)
              const page = yield* consentPageFor(world, person, start.url)
              for (const origin of ["https://attacker.example", "null"]) {
                const answer = yield* decide(world, person, page.text, { origin })
                expect(answer.status, origin).toBe(403)
                expect(answer.location).toBeNull()
              }
              const noToken = yield* decide(world, person, page.text, {
                tamper: (form) => form.delete("consent_token")
              })
              expect(noToken.status).toBe(403)
              // Changing what was approved (here the scope) breaks the token bound to the request.
              const widened = yield* decide(world, person, page.text, {
                tamper: (form) => form.set("scope", "organizations:read organizations:write")
              })
              expect(widened.status).toBe(403)
              // Another person's session cannot replay this person's form.
              const other = yield* signUp("csrf-other")
              yield* createOrganization(other, "Other Org")
              const replayed = yield* decide(world, other, page.text)
              expect(replayed.status).toBe(403)
              // The untouched form still works.
              const approved = yield* decide(world, person, page.text)
              expect(approved.status).toBe(303)
              expect(new URL(approved.location ?? "").searchParams.get("code")).toMatch(/^foc_/)
            })
        )

        it.effect("write is offered only where the person is owner or admin, and refused if forced", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("consent-owner")
            const organization = yield* createOrganization(owner, "Mixed Roles")
            const member = (yield* join(owner, organization.id, "member", "consent-member")).account
            const own = yield* createOrganization(member, "Member's Own")
            const client = yield* registerPublic(world)
            const start = yield* authorizationUrl(world, client.client_id, {
              scope: "organizations:read organizations:write"
            })
            const page = yield* consentPageFor(world, member, start.url)
            expect(offeredOrganizations(page.text)).toEqual([own.id])
            expect(page.text).toContain("changing it needs an owner or admin")
            const forced = yield* decide(world, member, page.text, { organizationId: organization.id })
            expect(forced.status).toBe(403)
            expect(forced.location).toBeNull()
            const foreign = yield* decide(world, member, page.text, { organizationId: "org_not_mine" })
            expect(foreign.status).toBe(400)
            // Read only: every organization of theirs is offered.
            const reader = yield* authorizationUrl(world, client.client_id)
            expect(
              offeredOrganizations((yield* consentPageFor(world, member, reader.url)).text).sort()
            ).toEqual([organization.id, own.id].sort())
          })
        )

        it.effect("a wrong verifier is invalid_grant, and the code is used up", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("verifier")
            yield* createOrganization(person, "Verifier Org")
            const client = yield* registerPublic(world)
            const start = yield* authorizationUrl(world, client.client_id)
            const callback = yield* approve(world, person, start)
            const wrong = yield* oauthErrorOf(
              exchange(
                world,
                { client },
                { ...start, codeVerifier: oauth.generateRandomCodeVerifier() },
                callback
              )
            )
            expect(wrong).toMatchObject({ code: "invalid_grant", status: 400 })
            expect(wrong.description).toContain("code_verifier")
            const right = yield* oauthErrorOf(exchange(world, { client }, start, callback))
            expect(right.code).toBe("invalid_grant")
          })
        )

        it.effect("a code presented twice is refused and revokes the tokens it issued", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("reuse")
            const organization = yield* createOrganization(person, "Reuse Org")
            const client = yield* registerPublic(world)
            const start = yield* authorizationUrl(world, client.client_id)
            const callback = yield* approve(world, person, start)
            const tokens = yield* exchange(world, { client }, start, callback)
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(200)
            const again = yield* oauthErrorOf(exchange(world, { client }, start, callback))
            expect(again.code).toBe("invalid_grant")
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(401)
            expect((yield* oauthErrorOf(refresh(world, client, tokens.refresh_token ?? ""))).code).toBe(
              "invalid_grant"
            )
          })
        )

        it.effect("a code is exchanged only by its client, with its redirect URI and its resource", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("binding")
            yield* createOrganization(person, "Binding Org")
            const client = yield* registerPublic(world)
            const thief = yield* registerPublic(world)
            const wrongResource = yield* authorizationUrl(world, client.client_id)
            const stolen = yield* authorizationUrl(world, client.client_id)
            const otherRedirect = yield* authorizationUrl(world, client.client_id)
            const resourceCallback = yield* approve(world, person, wrongResource)
            const stolenCallback = yield* approve(world, person, stolen)
            const redirectCallback = yield* approve(world, person, otherRedirect)

            const target = yield* oauthErrorOf(
              exchange(
                world,
                { client, extra: { resource: `${PUBLIC_ORIGIN}/mcp/agent` } },
                wrongResource,
                resourceCallback
              )
            )
            expect(target.code).toBe("invalid_target")
            const code = new URL(stolenCallback).searchParams.get("code") ?? ""
            const byThief = yield* post(
              world,
              "/oauth/token",
              new URLSearchParams({
                grant_type: "authorization_code",
                code,
                code_verifier: stolen.codeVerifier,
                redirect_uri: REDIRECT_URI,
                client_id: thief.client_id
              }).toString()
            )
            expect(byThief.status).toBe(400)
            expect(byThief.json).toMatchObject({ error: "invalid_grant" })
            const redirectCode = new URL(redirectCallback).searchParams.get("code") ?? ""
            const elsewhere = yield* post(
              world,
              "/oauth/token",
              new URLSearchParams({
                grant_type: "authorization_code",
                code: redirectCode,
                code_verifier: otherRedirect.codeVerifier,
                redirect_uri: "http://127.0.0.1:9/other",
                client_id: client.client_id
              }).toString()
            )
            expect(elsewhere.json).toMatchObject({ error: "invalid_grant" })
          })
        )

        it.effect("a token without organizations:write is refused a write: 403 insufficient_scope", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("scope")
            const organization = yield* createOrganization(person, "Scoped Org")
            const client = yield* registerPublic(world)
            const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
            const write = yield* callApi(
              world,
              tokens.access_token,
              `/organizations/${organization.id}`,
              "PATCH",
              {
                version: 1,
                name: "Not allowed"
              }
            )
            expect(write.status).toBe(403)
            expect(isEnvelope(write.json, 403)).toBe(true)
            expect(write.challenges[0]?.parameters).toMatchObject({
              error: "insufficient_scope",
              scope: "organizations:write",
              resource_metadata: `${PUBLIC_ORIGIN}/.well-known/oauth-protected-resource/api/v1`
            })
            // Another organization than the grant's: 403 as for any bearer token of §3.
            const other = yield* createOrganization(person, "Not Granted")
            expect((yield* callApi(world, tokens.access_token, `/organizations/${other.id}`)).status).toBe(
              403
            )
          })
        )

        it.effect("a person demoted to member keeps read through the app and loses write (403)", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("demoter")
            const organization = yield* createOrganization(owner, "Demotion Org")
            const admin = yield* join(owner, organization.id, "admin", "oauth-admin")
            const client = yield* registerPublic(world)
            const tokens = yield* codeFlow(world, admin.account, {
              client,
              organizationId: organization.id,
              extra: { scope: "organizations:read organizations:write" }
            })
            const demoted = yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
              method: "PATCH",
              session: owner.session,
              body: { role: "member" }
            })
            expect(demoted.status).toBe(200)
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(200)
            const write = yield* callApi(
              world,
              tokens.access_token,
              `/organizations/${organization.id}`,
              "PATCH",
              {
                version: 1,
                name: "Written by a member's app"
              }
            )
            expect(write.status).toBe(403)
            expect((write.json as { message: string }).message).toContain("acts for")
          })
        )

        it.effect("removing the person ends their connection there: 401, and refresh is invalid_grant", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("remover")
            const organization = yield* createOrganization(owner, "Removal Org")
            const member = yield* join(owner, organization.id, "member", "oauth-removed")
            const client = yield* registerPublic(world)
            const tokens = yield* codeFlow(world, member.account, { client, organizationId: organization.id })
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(200)
            yield* call(`/organizations/${organization.id}/members/${member.memberId}`, {
              method: "DELETE",
              session: owner.session
            })
            const after = yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)
            expect(after.status).toBe(401)
            expect(after.challenges[0]?.parameters.error).toBe("invalid_token")
            expect((yield* oauthErrorOf(refresh(world, client, tokens.refresh_token ?? ""))).code).toBe(
              "invalid_grant"
            )
          })
        )

        it.effect("a revoked connection's tokens stop working", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("disconnect")
            const organization = yield* createOrganization(person, "Disconnected Org")
            const client = yield* registerPublic(world)
            const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
            const list = yield* call("/connections", { session: person.session })
            const [connection] = (list.json as { items: Array<{ id: string }> }).items
            const revoked = yield* call(`/connections/${connection?.id}`, {
              method: "DELETE",
              session: person.session
            })
            expect(revoked.status).toBe(200)
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(401)
            expect((yield* oauthErrorOf(refresh(world, client, tokens.refresh_token ?? ""))).code).toBe(
              "invalid_grant"
            )
          })
        )

        it.effect("the token endpoint answers every malformed request in OAuth's format", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const client = yield* registerPublic(world)
            const cases: ReadonlyArray<readonly [string, Record<string, string>, number, string]> = [
              ["no grant_type", { client_id: client.client_id }, 400, "invalid_request"],
              [
                "an unknown grant",
                { client_id: client.client_id, grant_type: "password" },
                400,
                "unsupported_grant_type"
              ],
              [
                "no code_verifier",
                {
                  client_id: client.client_id,
                  grant_type: "authorization_code",
                  code: "foc_x",
                  redirect_uri: REDIRECT_URI
                },
                400,
                "invalid_request"
              ],
              ["no client", { grant_type: "refresh_token", refresh_token: "for_x" }, 401, "invalid_client"],
              [
                "an unknown refresh token",
                { client_id: client.client_id, grant_type: "refresh_token", refresh_token: "for_x" },
                400,
                "invalid_grant"
              ]
            ]
            for (const [label, params, status, error] of cases) {
              const answer = yield* post(world, "/oauth/token", new URLSearchParams(params).toString())
              expect(answer.status, label).toBe(status)
              expect(answer.json, label).toEqual({ error, error_description: expect.any(String) })
              expect(answer.headers.get("cache-control"), label).toBe("no-store")
            }
            const repeated = yield* post(
              world,
              "/oauth/token",
              `grant_type=refresh_token&grant_type=refresh_token`
            )
            expect(repeated.json).toMatchObject({ error: "invalid_request" })
            // Not form-encoded: refused at the server's edge, still in OAuth's format.
            const json = yield* post(world, "/oauth/token", JSON.stringify({ grant_type: "refresh_token" }), {
              "content-type": "application/json"
            })
            expect(json.status).toBe(400)
            expect(json.json).toMatchObject({ error: "invalid_request" })
            const get = yield* Effect.promise(() => world.fetch(`${PUBLIC_ORIGIN}/oauth/token`))
            expect(get.status).toBe(405)
            expect(get.headers.get("allow")).toBe("POST")
            const revocation = yield* post(
              world,
              "/oauth/revoke",
              new URLSearchParams({ client_id: client.client_id }).toString()
            )
            expect(revocation.json).toMatchObject({ error: "invalid_request" })
          })
        )

        it.effect("registration refuses redirect URIs and metadata it cannot honour", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const register = (body: unknown) =>
              Effect.promise(async () => {
                const response = await world.fetch(`${PUBLIC_ORIGIN}/oauth/register`, {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify(body)
                })
                return { status: response.status, json: (await response.json()) as Record<string, unknown> }
              })
            for (const uri of [
              "http://app.example/callback",
              "https://app.example/callback#fragment",
              "javascript:alert(1)",
              "https://user:pass@app.example/callback",
              "notaurl",
              "HTTPS://APP.EXAMPLE/callback"
            ]) {
              const answer = yield* register({ redirect_uris: [uri], token_endpoint_auth_method: "none" })
              expect(answer.status, uri).toBe(400)
              expect(answer.json.error, uri).toBe("invalid_redirect_uri")
            }
            expect((yield* register({ token_endpoint_auth_method: "none" })).json.error).toBe(
              "invalid_redirect_uri"
            )
            for (const metadata of [
              { token_endpoint_auth_method: "client_secret_post" },
              { grant_types: ["implicit"] },
              { response_types: ["token"] }
            ]) {
              const answer = yield* register({ redirect_uris: [REDIRECT_URI], ...metadata })
              expect(answer.json.error, JSON.stringify(metadata)).toBe("invalid_client_metadata")
            }
            expect((yield* register(["not", "an", "object"])).json.error).toBe("invalid_client_metadata")
            // Private-use schemes and https are fine.
            const app = yield* register({
              redirect_uris: ["com.example.app:/oauth/callback", "https://app.example/callback"],
              token_endpoint_auth_method: "none"
            })
            expect(app.status).toBe(201)
            expect(app.json.redirect_uris).toEqual([
              "com.example.app:/oauth/callback",
              "https://app.example/callback"
            ])
          })
        )
      }
    )
  })
}

describe("OAuth rate limits", () => {
  layer(foundationServer(backends[0]?.database ?? Effect.die("no backend")), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "registration allows 10 a minute per address, then 429 with Retry-After",
      () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          // Counted under the test's own (loopback) address, which cannot change from run to run.
          yield* inOneWindowSameKeys(
            Effect.gen(function* () {
              const statuses: Array<number> = []
              let last: Response | undefined
              for (let attempt = 0; attempt < 11; attempt++) {
                last = yield* Effect.promise(() =>
                  world.fetch(`${PUBLIC_ORIGIN}/oauth/register`, {
                    method: "POST",
                    headers: { "content-type": "application/json" },
                    body: JSON.stringify({
                      redirect_uris: [REDIRECT_URI],
                      token_endpoint_auth_method: "none"
                    })
                  })
                )
                statuses.push(last.status)
              }
              expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true)
              expect(statuses[10]).toBe(429)
              expect(Number(last?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
              expect(yield* Effect.promise(async () => last?.json())).toMatchObject({
                error: "too_many_requests"
              })
            }),
            5_000
          )
        }),
      // Time for a wait of up to a minute, should the burst cross a window's edge.
      120_000
    )

    it.effect("the token endpoint allows 60 a minute per client, then 429 with Retry-After", () =>
      Effect.gen(function* () {
        const world = yield* oauthWorld
        // Counted per client: each run names clients of its own.
        yield* inOneWindow((run) =>
          Effect.gen(function* () {
            const body = new URLSearchParams({
              grant_type: "refresh_token",
              refresh_token: "for_unknown",
              client_id: `cli_rate_limited_${run}`
            }).toString()
            const statuses: Array<number> = []
            for (let attempt = 0; attempt < 61; attempt++)
              statuses.push((yield* post(world, "/oauth/token", body)).status)
            expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true)
            const limited = yield* post(world, "/oauth/token", body)
            expect(limited.status).toBe(429)
            expect(limited.json).toMatchObject({ error: "too_many_requests" })
            expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
            // Another client is counted on its own.
            const other = yield* post(world, "/oauth/token", body.replace("cli_rate_limited", "cli_other"))
            expect(other.status).toBe(401)
          })
        )
      })
    )
  })
})

describeNeeding(postgresUnavailable)(
  "OAuth refusals that need a row aged or rewritten, on PostgreSQL",
  () => {
    layer(postgresFoundationServer(generous), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("an expired code is invalid_grant", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("expired-code")
          yield* createOrganization(person, "Expired Org")
          const client = yield* registerPublic(world)
          const start = yield* authorizationUrl(world, client.client_id)
          const callback = yield* approve(world, person, start)
          const lifetime = yield* sqlQuery(
            "SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM oauth_codes WHERE client_id = $1",
            [client.client_id]
          )
          expect(lifetime[0]?.seconds).toBe(60)
          yield* sqlQuery(
            "UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE client_id = $1",
            [client.client_id]
          )
          const expired = yield* oauthErrorOf(exchange(world, { client }, start, callback))
          expect(expired.code).toBe("invalid_grant")
          expect(expired.description).toContain("expired")
        })
      )

      it.effect(
        "an access token is accepted only by the resource it was issued for (401 invalid_token)",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUp("other-resource")
            const organization = yield* createOrganization(person, "Resource Org")
            const client = yield* registerPublic(world)
            const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
            // As if it had been issued for another of the service's resources.
            yield* sqlQuery("UPDATE oauth_grants SET resource = $1 WHERE client_id = $2", [
              `${PUBLIC_ORIGIN}/mcp/agent`,
              client.client_id
            ])
            const answer = yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)
            expect(answer.status).toBe(401)
            expect(answer.challenges[0]?.parameters.error).toBe("invalid_token")
          })
      )

      it.effect("only hashes of codes, tokens and client secrets are stored", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUp("hashes")
          yield* createOrganization(person, "Hashed Org")
          const client = yield* registerPublic(world)
          const confidential = yield* registerConfidential(world)
          const start = yield* authorizationUrl(world, client.client_id)
          const callback = yield* approve(world, person, start)
          const code = callback.searchParams.get("code") ?? ""
          const tokens = yield* exchange(world, { client }, start, callback)
          const dump = JSON.stringify([
            yield* sqlQuery("SELECT * FROM oauth_codes"),
            yield* sqlQuery("SELECT * FROM oauth_access_tokens"),
            yield* sqlQuery("SELECT * FROM oauth_refresh_tokens"),
            yield* sqlQuery("SELECT * FROM oauth_clients")
          ])
          const secrets = [
            code,
            tokens.access_token,
            tokens.refresh_token ?? "",
            String(confidential.client_secret)
          ]
          for (const secret of secrets) {
            expect(secret.length).toBeGreaterThan(40)
            expect(dump).not.toContain(secret)
            expect(dump).not.toContain(secret.slice(4))
          }
        })
      )
    })
  }
)

// Organization API tokens and the authentication rules for bearer tokens and sessions
// (base contract §5, extensions §3 and §5), on PGlite and PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import {
  call,
  createOrganization,
  createToken,
  foundationServer,
  logLines,
  PUBLIC_ORIGIN,
  signUp
} from "./support/FoundationClient.js"

for (const backend of backends) {
  describeNeeding(backend.missing)(`credentials on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("tokens.create shows the token once; tokens.list shows its prefix and never the token", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("token-owner")
          const organization = yield* createOrganization(owner, "Token Org")
          const created = yield* call(`/organizations/${organization.id}/tokens`, {
            session: owner.session,
            body: { name: "deploy", scopes: ["organizations:write", "organizations:read"], expiresInDays: 7 }
          })
          expect(created.status).toBe(200)
          const token = created.json as Record<string, unknown>
          expect(Object.keys(token).sort()).toEqual([
            "createdAt",
            "expiresAt",
            "id",
            "name",
            "scopes",
            "token"
          ])
          expect(token.name).toBe("deploy")
          expect(token.scopes).toEqual(["organizations:read", "organizations:write"])
          expect(String(token.token)).toMatch(/^fst_[A-Za-z0-9_-]{54}$/)
          const lifetime = Date.parse(String(token.expiresAt)) - Date.parse(String(token.createdAt))
          expect(lifetime).toBe(7 * 24 * 3600 * 1000)

          const list = yield* call(`/organizations/${organization.id}/tokens`, { session: owner.session })
          expect(list.status).toBe(200)
          const page = list.json as { items: Array<Record<string, unknown>>; nextCursor: string | null }
          expect(page.nextCursor).toBeNull()
          expect(page.items).toHaveLength(1)
          expect(page.items[0]).toEqual({
            id: token.id,
            name: "deploy",
            scopes: ["organizations:read", "organizations:write"],
            prefix: String(token.token).slice(0, 12),
            createdAt: token.createdAt,
            expiresAt: token.expiresAt,
            lastUsedAt: null,
            createdBy: { id: owner.userId, name: "token-owner" }
          })
          expect(list.text).not.toContain(String(token.token))
        })
      )

      it.effect("tokens.list pages with a cursor, newest first", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("token-pages")
          const organization = yield* createOrganization(owner, "Paged Org")
          const ids: Array<string> = []
          for (let i = 0; i < 5; i++) ids.push((yield* createToken(owner, organization.id)).id)
          const seen: Array<string> = []
          let cursor: string | null = ""
          let pages = 0
          while (cursor !== null) {
            const response = yield* call(
              `/organizations/${organization.id}/tokens?limit=2&cursor=${cursor}`,
              {
                session: owner.session
              }
            )
            expect(response.status).toBe(200)
            const page = response.json as { items: Array<{ id: string }>; nextCursor: string | null }
            expect(page.items.length).toBeLessThanOrEqual(2)
            seen.push(...page.items.map((item) => item.id))
            cursor = page.nextCursor
            pages++
          }
          expect(pages).toBe(3)
          expect(seen).toEqual([...ids].reverse())

          const badLimit = yield* call(`/organizations/${organization.id}/tokens?limit=0`, {
            session: owner.session
          })
          expect(badLimit.status).toBe(400)
          expect((badLimit.json as { message: string }).message).toContain("limit")
          const bigLimit = yield* call(`/organizations/${organization.id}/tokens?limit=101`, {
            session: owner.session
          })
          expect(bigLimit.status).toBe(400)
          const badCursor = yield* call(`/organizations/${organization.id}/tokens?cursor=garbage`, {
            session: owner.session
          })
          expect(badCursor.status).toBe(400)
        })
      )

      it.effect("tokens.create validates name, scopes and lifetime", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("token-invalid")
          const organization = yield* createOrganization(owner, "Invalid Org")
          const path = `/organizations/${organization.id}/tokens`
          const cases = [
            { name: "", scopes: ["organizations:read"], expiresInDays: 1 },
            { name: "n".repeat(81), scopes: ["organizations:read"], expiresInDays: 1 },
            { name: "x", scopes: [], expiresInDays: 1 },
            { name: "x", scopes: ["organizations:delete"], expiresInDays: 1 },
            { name: "x", scopes: ["organizations:read"], expiresInDays: 0 },
            { name: "x", scopes: ["organizations:read"], expiresInDays: 366 },
            { name: "x", scopes: ["organizations:read"], expiresInDays: 1.5 },
            { name: "x", scopes: ["organizations:read"] }
          ]
          for (const body of cases) {
            const response = yield* call(path, { session: owner.session, body })
            expect(response.status, JSON.stringify(body)).toBe(400)
            expect(response.json).toMatchObject({ defined: true, code: "BAD_REQUEST", status: 400 })
          }
        })
      )

      it.effect("a bearer token sees its own credential context", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("bearer-context")
          const organization = yield* createOrganization(owner, "Bearer Org")
          const { token } = yield* createToken(owner, organization.id, ["organizations:read"])
          const response = yield* call("/credential-context", { bearer: token })
          expect(response.status).toBe(200)
          expect(response.json).toEqual({
            principalKind: "apiKey",
            organization: { id: organization.id, name: "Bearer Org" },
            grantedScopes: ["organizations:read"]
          })
          const list = yield* call(`/organizations/${organization.id}/tokens`, { session: owner.session })
          const [item] = (list.json as { items: Array<{ lastUsedAt: string | null }> }).items
          expect(item?.lastUsedAt).not.toBeNull()
        })
      )

      it.effect("a session's credential context lists its organizations and the active one", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("session-context")
          const first = yield* createOrganization(owner, "First")
          const second = yield* createOrganization(owner, "Second")
          const response = yield* call("/credential-context", { session: owner.session })
          expect(response.json).toEqual({
            principalKind: "session",
            activeOrganizationId: second.id,
            organizations: [
              { id: first.id, name: "First", role: "owner" },
              { id: second.id, name: "Second", role: "owner" }
            ]
          })
        })
      )

      it.effect("a valid bearer token on a session-only operation is 403", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("bearer-403")
          const organization = yield* createOrganization(owner, "Scoped Org")
          const { token } = yield* createToken(owner, organization.id, [
            "organizations:read",
            "organizations:write"
          ])
          const attempts = [
            call("/profile", { bearer: token }),
            call("/context", { bearer: token }),
            call("/security/sessions", { bearer: token }),
            call("/profile", {
              method: "PATCH",
              bearer: token,
              body: { name: "x", preferredName: "y", theme: "dark" }
            }),
            call(`/organizations/${organization.id}/tokens`, { bearer: token }),
            call(`/organizations/${organization.id}/tokens`, {
              bearer: token,
              body: { name: "x", scopes: ["organizations:read"], expiresInDays: 1 }
            }),
            call("/auth/sign-out", { method: "POST", bearer: token })
          ]
          for (const attempt of attempts) {
            const response = yield* attempt
            expect(response.status).toBe(403)
            expect(response.json).toMatchObject({ defined: true, code: "FORBIDDEN", status: 403 })
          }
        })
      )

      it.effect("an invalid bearer token is 401 even when a valid session cookie comes with it", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("bearer-and-cookie")
          const response = yield* call("/credential-context", {
            bearer: "fst_not-a-real-token",
            session: owner.session
          })
          expect(response.status).toBe(401)
          expect(response.json).toMatchObject({ code: "UNAUTHORIZED" })
          const withCookieOnly = yield* call("/credential-context", { session: owner.session })
          expect(withCookieOnly.status).toBe(200)
        })
      )

      it.effect("an Authorization header that is not exactly `Bearer <token>` is 401", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("strict-bearer")
          const organization = yield* createOrganization(owner, "Strict Org")
          const { token } = yield* createToken(owner, organization.id)
          // (Whitespace around a header value is not part of it in HTTP, so `Bearer <token> ` is fine.)
          const malformed = [
            `xxxxxx${token}`,
            `xxxxxx ${token}`,
            `bearer ${token}`,
            `Bearer  ${token}`,
            `Bearer ${token} extra`,
            `Basic ${Buffer.from("a:b").toString("base64")}`,
            "Bearer",
            "Bearer ",
            `Token ${token}`
          ]
          for (const authorization of malformed) {
            const response = yield* request("/api/v1/credential-context", {
              headers: { authorization, cookie: `__Secure-service.session_token=${owner.session}` }
            })
            expect(response.status, authorization).toBe(401)
          }
          const wellFormed = yield* request("/api/v1/credential-context", {
            headers: { authorization: `Bearer ${token}` }
          })
          expect(wellFormed.status).toBe(200)
        })
      )

      it.effect("a revoked token is 401, and revoking it again is 404", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("revoke")
          const organization = yield* createOrganization(owner, "Revoke Org")
          const { id, token } = yield* createToken(owner, organization.id)
          expect((yield* call("/credential-context", { bearer: token })).status).toBe(200)
          const revoked = yield* call(`/organizations/${organization.id}/tokens/${id}`, {
            method: "DELETE",
            session: owner.session
          })
          expect(revoked.status).toBe(200)
          expect(revoked.json).toEqual({ success: true })
          const after = yield* call("/credential-context", { bearer: token })
          expect(after.status).toBe(401)
          expect(after.json).toMatchObject({ code: "UNAUTHORIZED" })
          const again = yield* call(`/organizations/${organization.id}/tokens/${id}`, {
            method: "DELETE",
            session: owner.session
          })
          expect(again.status).toBe(404)
          const list = yield* call(`/organizations/${organization.id}/tokens`, { session: owner.session })
          expect((list.json as { items: Array<unknown> }).items).toHaveLength(0)
        })
      )

      it.effect("only owners and admins manage tokens; a non-member gets 404 as for no organization", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("org-owner")
          const stranger = yield* signUp("stranger")
          const organization = yield* createOrganization(owner, "Private Org")
          const { id } = yield* createToken(owner, organization.id)
          const attempts = [
            call(`/organizations/${organization.id}/tokens`, { session: stranger.session }),
            call(`/organizations/${organization.id}/tokens`, {
              session: stranger.session,
              body: { name: "x", scopes: ["organizations:read"], expiresInDays: 1 }
            }),
            call(`/organizations/${organization.id}/tokens/${id}`, {
              method: "DELETE",
              session: stranger.session
            }),
            call("/organizations/org_does_not_exist/tokens", { session: stranger.session })
          ]
          for (const attempt of attempts) {
            const response = yield* attempt
            expect(response.status).toBe(404)
            expect(response.json).toMatchObject({ defined: true, code: "NOT_FOUND", status: 404 })
          }
          const ownerList = yield* call(`/organizations/${organization.id}/tokens`, {
            session: owner.session
          })
          expect((ownerList.json as { items: Array<unknown> }).items).toHaveLength(1)
        })
      )

      it.effect("a session write without the public Origin, or with another one, is 403", () =>
        Effect.gen(function* () {
          const account = yield* signUp("origin")
          const body = { name: "Orig", preferredName: "O", theme: "light" }
          const missing = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body,
            origin: null
          })
          expect(missing.status).toBe(403)
          expect(missing.json).toMatchObject({ defined: true, code: "FORBIDDEN", status: 403 })
          const foreign = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body,
            origin: "https://evil.example"
          })
          expect(foreign.status).toBe(403)
          const unchanged = yield* call("/profile", { session: account.session })
          expect(unchanged.json).toMatchObject({ name: "origin", theme: "system" })
          const signOut = yield* call("/auth/sign-out", {
            method: "POST",
            session: account.session,
            origin: null
          })
          expect(signOut.status).toBe(403)
          const good = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body,
            origin: PUBLIC_ORIGIN
          })
          expect(good.status).toBe(200)
          // Reads need no Origin.
          const read = yield* call("/profile", { session: account.session, origin: null })
          expect(read.status).toBe(200)
        })
      )

      it.effect("sign-in from a foreign page (a foreign Origin) is 403; without Origin it works", () =>
        Effect.gen(function* () {
          const account = yield* signUp("login-csrf")
          const foreign = yield* call("/auth/sign-in", {
            body: { email: account.email, password: account.password },
            origin: "https://evil.example"
          })
          expect(foreign.status).toBe(403)
          const none = yield* call("/auth/sign-in", {
            body: { email: account.email, password: account.password },
            origin: null
          })
          expect(none.status).toBe(200)
        })
      )

      it.effect("API tokens never appear in the log", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("token-log")
          const organization = yield* createOrganization(owner, "Log Org")
          const { token } = yield* createToken(owner, organization.id)
          yield* call("/credential-context", { bearer: token })
          yield* call("/profile", { bearer: token })
          expect(logLines.join("\n")).not.toContain(token)
          expect(logLines.join("\n")).not.toContain(owner.session)
        })
      )
    })
  })
}

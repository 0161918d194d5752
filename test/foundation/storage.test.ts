// What only a direct look at PostgreSQL can show: expiry, sliding sessions, roles set up by hand,
// and that secrets are stored only as hashes.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { postgresUnavailable } from "./support/Backends.js"
import {
  call,
  createOrganization,
  createToken,
  linkTokenFor,
  postgresFoundationServer,
  sessionFrom,
  signUp,
  sqlQuery,
  uniqueEmail
} from "./support/FoundationClient.js"

describeNeeding(postgresUnavailable)("foundation storage on PostgreSQL", () => {
  layer(postgresFoundationServer(), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("concurrent sign-ups with one email: exactly one account, the others 409", () =>
      Effect.gen(function* () {
        const email = uniqueEmail("race")
        const responses = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) =>
            call("/auth/sign-up", { body: { email, password: "long enough password", name: `Racer ${i}` } })
          ),
          { concurrency: "unbounded" }
        )
        const statuses = responses.map((response) => response.status).sort()
        expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
        const rows = yield* sqlQuery("SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)", [
          email
        ])
        expect(rows[0]?.n).toBe(1)
        const messages = yield* sqlQuery("SELECT count(*)::int AS n FROM outbox WHERE recipient = $1", [
          email
        ])
        expect(messages[0]?.n).toBe(1)
      })
    )

    it.effect("concurrent creations with one slug: exactly one organization, the others 409", () =>
      Effect.gen(function* () {
        const account = yield* signUp("slug-race")
        const slug = `race-${Date.now()}`
        const responses = yield* Effect.all(
          Array.from({ length: 6 }, (_, i) =>
            call("/organizations", { session: account.session, body: { name: `Race ${i}`, slug } })
          ),
          { concurrency: "unbounded" }
        )
        expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
        const members = yield* sqlQuery(
          "SELECT count(*)::int AS n FROM members m JOIN organizations o ON o.id = m.organization_id WHERE o.slug = $1",
          [slug]
        )
        expect(members[0]?.n).toBe(1)
      })
    )

    it.effect("an expired session is 401", () =>
      Effect.gen(function* () {
        const account = yield* signUp("expired-session")
        expect((yield* call("/profile", { session: account.session })).status).toBe(200)
        yield* sqlQuery("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
          account.userId
        ])
        const response = yield* call("/profile", { session: account.session })
        expect(response.status).toBe(401)
        expect(response.json).toMatchObject({ defined: true, code: "UNAUTHORIZED" })
      })
    )

    it.effect("an expired API token is 401", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("expired-token")
        const organization = yield* createOrganization(owner, "Expiry Org")
        const { id, token } = yield* createToken(owner, organization.id)
        expect((yield* call("/credential-context", { bearer: token })).status).toBe(200)
        yield* sqlQuery("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [id])
        expect((yield* call("/credential-context", { bearer: token })).status).toBe(401)
      })
    )

    it.effect(
      "sessions slide: activity after a minute pushes the expiry forward and resends the cookie",
      () =>
        Effect.gen(function* () {
          const account = yield* signUp("sliding")
          yield* sqlQuery(
            "UPDATE sessions SET last_seen_at = now() - interval '2 minutes', expires_at = now() + interval '1 hour' WHERE user_id = $1",
            [account.userId]
          )
          const response = yield* call("/profile", { session: account.session })
          expect(response.status).toBe(200)
          expect(response.headers.get("set-cookie")).toContain(
            `=${account.session}; HttpOnly; Secure; SameSite=Lax; Path=/`
          )
          const [row] = yield* sqlQuery(
            "SELECT extract(epoch FROM expires_at - now())::int AS left, extract(epoch FROM now() - last_seen_at)::int AS idle FROM sessions WHERE user_id = $1",
            [account.userId]
          )
          expect(Number(row?.left)).toBeGreaterThan(29 * 24 * 3600)
          expect(Number(row?.idle)).toBeLessThan(5)
          // Within the minute nothing is written and no cookie is sent again.
          const quiet = yield* call("/profile", { session: account.session })
          expect(quiet.headers.get("set-cookie")).toBeNull()
        })
    )

    it.effect("a member (not owner or admin) may not manage tokens (403)", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("owner")
        const member = yield* signUp("member")
        const organization = yield* createOrganization(owner, "Members Org")
        yield* sqlQuery(
          "INSERT INTO members (id, organization_id, user_id, role) VALUES ($1, $2, $3, 'member')",
          [`mem_${member.userId}`, organization.id, member.userId]
        )
        const list = yield* call(`/organizations/${organization.id}/tokens`, { session: member.session })
        expect(list.status).toBe(403)
        expect(list.json).toMatchObject({ defined: true, code: "FORBIDDEN", status: 403 })
        const create = yield* call(`/organizations/${organization.id}/tokens`, {
          session: member.session,
          body: { name: "x", scopes: ["organizations:read"], expiresInDays: 1 }
        })
        expect(create.status).toBe(403)
        yield* sqlQuery("UPDATE members SET role = 'admin' WHERE user_id = $1", [member.userId])
        const asAdmin = yield* call(`/organizations/${organization.id}/tokens`, { session: member.session })
        expect(asAdmin.status).toBe(200)
        // The member's context shows the organization with its role.
        const context = yield* call("/credential-context", { session: member.session })
        expect(context.json).toMatchObject({
          activeOrganizationId: null,
          organizations: [{ id: organization.id, role: "admin" }]
        })
      })
    )

    it.effect("session tokens, API tokens and delivered email tokens are stored only as hashes", () =>
      Effect.gen(function* () {
        const account = yield* signUp("hashed", "a stored password")
        const second = sessionFrom(
          yield* call("/auth/sign-in", { body: { email: account.email, password: account.password } })
        )
        const organization = yield* createOrganization(account, "Hash Org")
        const { token } = yield* createToken(account, organization.id)
        const emailToken = yield* linkTokenFor(account.email)
        // Give the worker the moment it needs to mark the message delivered.
        let pending = 1
        for (let i = 0; i < 50 && pending > 0; i++) {
          const [row] = yield* sqlQuery("SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL")
          pending = Number(row?.n)
          if (pending > 0) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
        }
        const tables = yield* sqlQuery(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
        )
        expect(tables.length).toBeGreaterThanOrEqual(10)
        let dump = ""
        for (const { table_name } of tables) {
          dump += JSON.stringify(yield* sqlQuery(`SELECT * FROM "${String(table_name)}"`))
        }
        for (const secret of [account.session, second, token, emailToken, "a stored password"]) {
          expect(dump).not.toContain(secret)
        }
        const [credential] = yield* sqlQuery(
          "SELECT password_hash FROM password_credentials WHERE user_id = $1",
          [account.userId]
        )
        // At the cost the test servers run with (test/support/TestServer.ts); passwords.test.ts
        // holds the default.
        expect(String(credential?.password_hash)).toMatch(
          /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/
        )
      })
    )
  })
})

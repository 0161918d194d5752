// Accounts and sessions through the real server (extensions §1, base contract profile.*), on PGlite
// and on PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  type Account,
  COOKIE,
  call,
  foundationServer,
  linkTokenFor,
  logLines,
  sessionFrom,
  signUp,
  uniqueEmail
} from "./support/FoundationClient.js"

for (const backend of backends) {
  describeNeeding(backend.missing)(`accounts on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("sign-up answers the new profile and a session cookie with the contract's flags", () =>
        Effect.gen(function* () {
          const email = uniqueEmail("new")
          const response = yield* call("/auth/sign-up", {
            body: { email, password: "long enough password", name: "New Person" }
          })
          expect(response.status).toBe(200)
          expect(response.json).toEqual({
            user: {
              id: expect.any(String),
              name: "New Person",
              email,
              emailVerified: false,
              preferredName: null,
              theme: "system",
              onboardingCompleted: false
            }
          })
          const cookie = response.headers.get("set-cookie") ?? ""
          expect(cookie).toMatch(new RegExp(`^${COOKIE.replace(".", "\\.")}=[A-Za-z0-9_-]{43};`))
          const attributes = cookie.split("; ").slice(1)
          expect(attributes).toEqual(expect.arrayContaining(["HttpOnly", "Secure", "SameSite=Lax", "Path=/"]))
          expect(attributes).toContain("Max-Age=2592000")
          // The session works.
          const context = yield* call("/credential-context", { session: sessionFrom(response) })
          expect(context.status).toBe(200)
          expect(context.json).toEqual({
            principalKind: "session",
            activeOrganizationId: null,
            organizations: []
          })
        })
      )

      it.effect("sign-up with an email already registered (in any case) is 409 CONFLICT", () =>
        Effect.gen(function* () {
          const account = yield* signUp("dup")
          const response = yield* call("/auth/sign-up", {
            body: { email: account.email.toUpperCase(), password: "another password", name: "Dup" }
          })
          expect(response.status).toBe(409)
          expect(response.json).toMatchObject({ defined: true, code: "CONFLICT", status: 409 })
          expect(response.headers.get("set-cookie")).toBeNull()
        })
      )

      it.effect("sign-up with invalid fields is 400 naming each field", () =>
        Effect.gen(function* () {
          const shortPassword = yield* call("/auth/sign-up", {
            body: { email: uniqueEmail(), password: "short", name: "X" }
          })
          expect(shortPassword.status).toBe(400)
          expect(shortPassword.json).toMatchObject({ defined: true, code: "BAD_REQUEST", status: 400 })
          expect((shortPassword.json as { message: string }).message).toContain("password")

          const badEmail = yield* call("/auth/sign-up", {
            body: { email: "not-an-email", password: "long enough password", name: "X" }
          })
          expect(badEmail.status).toBe(400)
          expect((badEmail.json as { message: string }).message).toContain("email")

          const longName = yield* call("/auth/sign-up", {
            body: { email: uniqueEmail(), password: "long enough password", name: "n".repeat(121) }
          })
          expect(longName.status).toBe(400)
          expect((longName.json as { message: string }).message).toContain("name")

          const notJson = yield* call("/auth/sign-up", {
            body: undefined,
            method: "POST",
            headers: { "content-type": "application/json" }
          })
          expect(notJson.status).toBe(400)
        })
      )

      it.effect("sign-in failures are the same 401 whether or not the email exists", () =>
        Effect.gen(function* () {
          const account = yield* signUp("signin")
          const wrongPassword = yield* call("/auth/sign-in", {
            body: { email: account.email, password: "wrong password!" }
          })
          const unknownEmail = yield* call("/auth/sign-in", {
            body: { email: uniqueEmail("nobody"), password: "wrong password!" }
          })
          expect(wrongPassword.status).toBe(401)
          expect(unknownEmail.status).toBe(401)
          expect(wrongPassword.json).toEqual(unknownEmail.json)
          expect(wrongPassword.json).toEqual({
            defined: true,
            code: "UNAUTHORIZED",
            status: 401,
            message: "The email or password is incorrect."
          })
          expect(wrongPassword.headers.get("set-cookie")).toBeNull()
        })
      )

      it.effect("sign-in with the right password opens a new session", () =>
        Effect.gen(function* () {
          const account = yield* signUp("signin-ok")
          const response = yield* call("/auth/sign-in", {
            body: { email: account.email.toUpperCase(), password: account.password }
          })
          expect(response.status).toBe(200)
          expect(response.json).toMatchObject({ user: { id: account.userId, email: account.email } })
          const session = sessionFrom(response)
          expect(session).not.toBe(account.session)
          const profile = yield* call("/profile", { session })
          expect(profile.status).toBe(200)
        })
      )

      it.effect("sign-out revokes the session and clears the cookie", () =>
        Effect.gen(function* () {
          const account = yield* signUp("signout")
          const response = yield* call("/auth/sign-out", { method: "POST", session: account.session })
          expect(response.status).toBe(200)
          expect(response.json).toEqual({ success: true })
          expect(response.headers.get("set-cookie")).toBe(
            `${COOKIE}=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0`
          )
          const after = yield* call("/profile", { session: account.session })
          expect(after.status).toBe(401)
          expect(after.json).toMatchObject({ defined: true, code: "UNAUTHORIZED", status: 401 })
        })
      )

      it.effect("no credential, or an unknown session, is 401 on session endpoints", () =>
        Effect.gen(function* () {
          const none = yield* call("/profile")
          expect(none.status).toBe(401)
          expect(none.json).toEqual({
            defined: true,
            code: "UNAUTHORIZED",
            status: 401,
            message: "Sign in to continue."
          })
          const unknown = yield* call("/profile", { session: "x".repeat(43) })
          expect(unknown.status).toBe(401)
        })
      )

      it.effect("email verification: the outbox logs a link whose token verifies the email once", () =>
        Effect.gen(function* () {
          const account = yield* signUp("verify")
          const token = yield* linkTokenFor(account.email)
          const line = logLines.find((text) => text.includes(account.email)) ?? ""
          expect(line).toContain(`http://foundation.test/verify-email?token=`)

          const verified = yield* call("/auth/verify-email", { body: { token } })
          expect(verified.status).toBe(200)
          expect(verified.json).toEqual({ success: true })
          const profile = yield* call("/profile", { session: account.session })
          expect(profile.json).toMatchObject({ emailVerified: true })

          const again = yield* call("/auth/verify-email", { body: { token } })
          expect(again.status).toBe(400)
          expect(again.json).toMatchObject({ code: "BAD_REQUEST" })
          const bogus = yield* call("/auth/verify-email", { body: { token: "nope" } })
          expect(bogus.status).toBe(400)
          const empty = yield* call("/auth/verify-email", { body: { token: "" } })
          expect(empty.status).toBe(400)
        })
      )

      it.effect("profile.get and profile.update round-trip the profile", () =>
        Effect.gen(function* () {
          const account = yield* signUp("profile")
          const updated = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body: { name: "Renamed", preferredName: "Ren", theme: "dark" }
          })
          expect(updated.status).toBe(200)
          expect(updated.json).toEqual({
            id: account.userId,
            name: "Renamed",
            email: account.email,
            emailVerified: false,
            preferredName: "Ren",
            theme: "dark",
            onboardingCompleted: false
          })
          const read = yield* call("/profile", { session: account.session })
          expect(read.json).toEqual(updated.json)
        })
      )

      it.effect("profile.update refuses missing and out-of-bounds fields and changes nothing", () =>
        Effect.gen(function* () {
          const account = yield* signUp("profile-bad")
          const missing = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body: { name: "Only name" }
          })
          expect(missing.status).toBe(400)
          const badTheme = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body: { name: "X", preferredName: "Y", theme: "purple" }
          })
          expect(badTheme.status).toBe(400)
          expect((badTheme.json as { message: string }).message).toContain("theme")
          const longPreferred = yield* call("/profile", {
            method: "PATCH",
            session: account.session,
            body: { name: "X", preferredName: "p".repeat(81), theme: "light" }
          })
          expect(longPreferred.status).toBe(400)
          const read = yield* call("/profile", { session: account.session })
          expect(read.json).toMatchObject({ name: "profile-bad", preferredName: null, theme: "system" })
        })
      )

      it.effect("profile.changeEmail changes the email only once the new address is verified", () =>
        Effect.gen(function* () {
          const account = yield* signUp("change")
          const newEmail = uniqueEmail("changed")
          const response = yield* call("/profile/email", {
            session: account.session,
            body: { email: newEmail }
          })
          expect(response.status).toBe(200)
          expect(response.json).toEqual({ success: true })
          const before = yield* call("/profile", { session: account.session })
          expect(before.json).toMatchObject({ email: account.email })

          const token = yield* linkTokenFor(newEmail)
          const verified = yield* call("/auth/verify-email", { body: { token } })
          expect(verified.status).toBe(200)
          const after = yield* call("/profile", { session: account.session })
          expect(after.json).toMatchObject({ email: newEmail, emailVerified: true })
          // The account now signs in with the new address only.
          const withNew = yield* call("/auth/sign-in", {
            body: { email: newEmail, password: account.password }
          })
          expect(withNew.status).toBe(200)
          const withOld = yield* call("/auth/sign-in", {
            body: { email: account.email, password: account.password }
          })
          expect(withOld.status).toBe(401)
        })
      )

      it.effect("profile.changeEmail to a taken address answers the same and sends nothing", () =>
        Effect.gen(function* () {
          const account = yield* signUp("change-taken")
          const other = yield* signUp("taken")
          yield* linkTokenFor(other.email)
          const before = logLines.filter((line) => line.includes(other.email)).length
          const response = yield* call("/profile/email", {
            session: account.session,
            body: { email: other.email }
          })
          expect(response.status).toBe(200)
          expect(response.json).toEqual({ success: true })
          yield* Effect.sleep("300 millis")
          expect(logLines.filter((line) => line.includes(other.email)).length).toBe(before)
          const bad = yield* call("/profile/email", {
            session: account.session,
            body: { email: `${"x".repeat(250)}@a.io` }
          })
          expect(bad.status).toBe(400)
        })
      )

      it.effect("a verification link for an address the account no longer has is refused (400)", () =>
        Effect.gen(function* () {
          const account = yield* signUp("stale-link")
          const firstToken = yield* linkTokenFor(account.email)
          const newEmail = uniqueEmail("moved")
          yield* call("/profile/email", { session: account.session, body: { email: newEmail } })
          const changeToken = yield* linkTokenFor(newEmail)
          expect((yield* call("/auth/verify-email", { body: { token: changeToken } })).status).toBe(200)
          const stale = yield* call("/auth/verify-email", { body: { token: firstToken } })
          expect(stale.status).toBe(400)
          expect(stale.json).toMatchObject({ defined: true, code: "BAD_REQUEST" })
        })
      )

      it.effect("an email change whose address was registered meanwhile is 409 on verification", () =>
        Effect.gen(function* () {
          const account = yield* signUp("late")
          const wanted = uniqueEmail("wanted")
          yield* call("/profile/email", { session: account.session, body: { email: wanted } })
          const token = yield* linkTokenFor(wanted)
          const other = yield* call("/auth/sign-up", {
            body: { email: wanted, password: "long enough password", name: "Quick" }
          })
          expect(other.status).toBe(200)
          const verify = yield* call("/auth/verify-email", { body: { token } })
          expect(verify.status).toBe(409)
          expect(verify.json).toMatchObject({ defined: true, code: "CONFLICT" })
          const profile = yield* call("/profile", { session: account.session })
          expect(profile.json).toMatchObject({ email: account.email })
        })
      )

      it.effect("the session list shows live sessions, marks the current one, and revokes others", () =>
        Effect.gen(function* () {
          const account = yield* signUp("sessions")
          const second = yield* call("/auth/sign-in", {
            body: { email: account.email, password: account.password },
            headers: { "user-agent": "second-device/1.0" }
          })
          const secondSession = sessionFrom(second)
          const list = yield* call("/security/sessions", { session: account.session })
          expect(list.status).toBe(200)
          const body = list.json as { items: Array<Record<string, unknown>>; nextCursor: null }
          expect(body.nextCursor).toBeNull()
          expect(body.items).toHaveLength(2)
          for (const item of body.items) {
            expect(Object.keys(item).sort()).toEqual([
              "createdAt",
              "current",
              "expiresAt",
              "id",
              "lastSeenAt",
              "userAgent"
            ])
            expect(Number.isNaN(Date.parse(String(item.expiresAt)))).toBe(false)
          }
          expect(body.items.filter((item) => item.current)).toHaveLength(1)
          const other = body.items.find((item) => !item.current)
          expect(other?.userAgent).toBe("second-device/1.0")

          const revoked = yield* call(`/security/sessions/${String(other?.id)}`, {
            method: "DELETE",
            session: account.session
          })
          expect(revoked.status).toBe(200)
          expect(revoked.json).toEqual({ success: true })
          expect((yield* call("/profile", { session: secondSession })).status).toBe(401)
          expect((yield* call("/profile", { session: account.session })).status).toBe(200)

          const unknown = yield* call("/security/sessions/ses_unknown", {
            method: "DELETE",
            session: account.session
          })
          expect(unknown.status).toBe(404)
        })
      )

      it.effect("another user's session cannot be revoked (404)", () =>
        Effect.gen(function* () {
          const alice = yield* signUp("alice")
          const bob = yield* signUp("bob")
          const bobSessions = yield* call("/security/sessions", { session: bob.session })
          const bobSessionId = (bobSessions.json as { items: Array<{ id: string }> }).items[0]?.id
          const attempt = yield* call(`/security/sessions/${String(bobSessionId)}`, {
            method: "DELETE",
            session: alice.session
          })
          expect(attempt.status).toBe(404)
          expect((yield* call("/profile", { session: bob.session })).status).toBe(200)
        })
      )

      it.effect("a password change needs the current password and revokes every other session", () =>
        Effect.gen(function* () {
          const account: Account = yield* signUp("password")
          const other = sessionFrom(
            yield* call("/auth/sign-in", { body: { email: account.email, password: account.password } })
          )
          const wrong = yield* call("/security/password", {
            session: account.session,
            body: { currentPassword: "not the password", newPassword: "brand new password" }
          })
          expect(wrong.status).toBe(400)
          expect((yield* call("/profile", { session: other })).status).toBe(200)

          const tooShort = yield* call("/security/password", {
            session: account.session,
            body: { currentPassword: account.password, newPassword: "short" }
          })
          expect(tooShort.status).toBe(400)

          const changed = yield* call("/security/password", {
            session: account.session,
            body: { currentPassword: account.password, newPassword: "brand new password" }
          })
          expect(changed.status).toBe(200)
          expect(changed.json).toEqual({ success: true })
          expect((yield* call("/profile", { session: other })).status).toBe(401)
          expect((yield* call("/profile", { session: account.session })).status).toBe(200)
          const oldPassword = yield* call("/auth/sign-in", {
            body: { email: account.email, password: account.password }
          })
          expect(oldPassword.status).toBe(401)
          const newPassword = yield* call("/auth/sign-in", {
            body: { email: account.email, password: "brand new password" }
          })
          expect(newPassword.status).toBe(200)
        })
      )

      it.effect(
        "context.get returns the profile, the active organization and the organizations with roles",
        () =>
          Effect.gen(function* () {
            const account = yield* signUp("context")
            const empty = yield* call("/context", { session: account.session })
            expect(empty.status).toBe(200)
            expect(empty.json).toMatchObject({
              activeOrganizationId: null,
              organizations: [],
              user: { id: account.userId }
            })
            const created = yield* call("/organizations", {
              session: account.session,
              body: { name: "Ctx Org" }
            })
            expect(created.status).toBe(200)
            const organization = created.json as { id: string }
            const after = yield* call("/context", { session: account.session })
            expect(after.json).toMatchObject({
              activeOrganizationId: organization.id,
              organizations: [{ id: organization.id, name: "Ctx Org", role: "owner", version: 1 }]
            })
          })
      )

      it.effect("session tokens, passwords and API tokens never appear in the log", () =>
        Effect.gen(function* () {
          const account = yield* signUp("secrets", "a very secret password")
          yield* call("/auth/sign-in", {
            body: { email: account.email, password: "a wrong secret password" }
          })
          yield* linkTokenFor(account.email)
          const everything = logLines.join("\n")
          expect(everything).not.toContain(account.session)
          expect(everything).not.toContain("a very secret password")
          expect(everything).not.toContain("a wrong secret password")
        })
      )
    })
  })
}

// Rules on what people may set (issue 14): an organization's website is an http or https URL (it is
// shown as a link), and a new password is refused, with the reason, when it is in a list of common
// and breached passwords, is one repeated character or only whitespace, or is the account's email
// (NIST SP 800-63B §3.1.1.2). On PGlite and PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  type Account,
  call,
  createOrganization,
  foundationServer,
  isEnvelope,
  sessionFrom,
  signUp,
  uniqueEmail
} from "./support/FoundationClient.js"

const commonPasswordMessage = "This password is in a list of common passwords; choose another."

const expectRefused = (
  response: { status: number; json: unknown; text: string },
  field: string,
  reason: string
) => {
  expect(response.status, response.text).toBe(400)
  expect(isEnvelope(response.json, 400), response.text).toBe(true)
  expect((response.json as { message: string }).message).toBe(`${field}: ${reason}`)
}

/** Whether `password` signs `account` in (so whether a change took effect). */
const signsIn = (account: Account, password: string) =>
  Effect.map(
    call("/auth/sign-in", { body: { email: account.email, password } }),
    (response) => response.status === 200
  )

for (const backend of backends) {
  describeNeeding(backend.missing)(`input rules on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { CREDENTIAL_RATE_LIMIT: "100000", AUTH_RATE_LIMIT: "1000" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "a website other than an http or https URL is 400 naming the field, and changes nothing",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("website")
            const organization = yield* createOrganization(owner, "Linked")
            const patch = (website: string, version: number) =>
              call(`/organizations/${organization.id}`, {
                method: "PATCH",
                session: owner.session,
                body: { version, name: "Linked", website }
              })
            for (const website of [
              "file:///etc/passwd",
              "file://host/share",
              "ftp://files.example/x",
              "mailto:office@example.com",
              "urn:isbn:0451450523",
              "javascript:alert(1)",
              "JavaScript:alert(1)",
              "data:text/html,<script>alert(1)</script>",
              "vbscript:msgbox(1)",
              "ws://example.com/socket",
              "http:example.com",
              "https://"
            ]) {
              const response = yield* patch(website, 1)
              expect(response.status, website).toBe(400)
              expect(isEnvelope(response.json, 400), response.text).toBe(true)
              expect((response.json as { message: string }).message, website).toBe(
                "website: must be empty or an http or https URL such as https://example.com"
              )
            }
            const unchanged = yield* call(`/organizations/${organization.id}`, { session: owner.session })
            expect(unchanged.json).toMatchObject({ website: null, version: 1 })
            let version = 1
            for (const website of [
              "https://example.com",
              "HTTP://Example.COM:8080/a?b=c#d",
              "https://例え.jp/パス",
              ""
            ]) {
              const response = yield* patch(website, version)
              expect(response.status, `${website}: ${response.text}`).toBe(200)
              expect(response.json).toMatchObject({ website: website === "" ? null : website })
              version++
            }
          })
      )

      it.effect(
        "sign-up with a common, repeated, blank or email-equal password is 400 saying why, and makes nothing",
        () =>
          Effect.gen(function* () {
            const email = uniqueEmail("weak")
            const cases: ReadonlyArray<readonly [string, string]> = [
              ["password", commonPasswordMessage],
              ["12345678", commonPasswordMessage],
              ["PassWord1", commonPasswordMessage],
              ["Iloveyou", commonPasswordMessage],
              ["        ", "This password is only whitespace; choose another."],
              ["\t \t \t \t ", "This password is only whitespace; choose another."],
              ["aaaaaaaaaaaa", "This password repeats one character; choose another."],
              ["ZzZzZzZzZz", "This password repeats one character; choose another."],
              [email.toUpperCase(), "This password is your email address; choose another."]
            ]
            for (const [password, reason] of cases) {
              const response = yield* call("/auth/sign-up", { body: { email, password, name: "Weak" } })
              expectRefused(response, "password", reason)
              expect(response.headers.get("set-cookie")).toBeNull()
            }
            // Nothing was made: the email is still free, and a password of its own is accepted.
            const accepted = yield* call("/auth/sign-up", {
              body: { email, password: "plum orchard at dusk", name: "Weak" }
            })
            expect(accepted.status, accepted.text).toBe(200)
          })
      )

      it.effect(
        "a password change to a weak password is 400 saying why, and the old password still works",
        () =>
          Effect.gen(function* () {
            const account = yield* signUp("weak-change")
            const other = yield* call("/auth/sign-in", {
              body: { email: account.email, password: account.password }
            })
            expect(other.status).toBe(200)
            for (const [newPassword, reason] of [
              ["password", commonPasswordMessage],
              ["qwertyuiop", commonPasswordMessage],
              ["        ", "This password is only whitespace; choose another."],
              ["11111111111", "This password repeats one character; choose another."],
              [account.email, "This password is your email address; choose another."]
            ] as const) {
              const response = yield* call("/security/password", {
                session: account.session,
                body: { currentPassword: account.password, newPassword }
              })
              expectRefused(response, "newPassword", reason)
              expect(yield* signsIn(account, newPassword)).toBe(false)
            }
            expect(yield* signsIn(account, account.password)).toBe(true)
            // No other session was revoked by a refused change.
            expect((yield* call("/profile", { session: sessionFrom(other) })).status).toBe(200)
            const changed = yield* call("/security/password", {
              session: account.session,
              body: { currentPassword: account.password, newPassword: "plum orchard at dusk" }
            })
            expect(changed.status, changed.text).toBe(200)
            expect(yield* signsIn(account, "plum orchard at dusk")).toBe(true)
          })
      )
    })
  })
}

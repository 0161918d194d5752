// `/verify-email/new`: a signed-in person asks for a new verification link. The new link verifies
// the address (the earlier one still does, until it expires); a verified account is told there is
// nothing to do; the post must come from the page with this session's form token; at most three
// links an hour per account.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { NEW_LINKS_PER_HOUR } from "../../src/foundation/Accounts/Accounts.js"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import {
  COOKIE,
  call,
  foundationServer,
  linkTokenFor,
  logLines,
  PUBLIC_ORIGIN,
  signUp,
  signUpVerified
} from "./support/FoundationClient.js"
import { inOneWindow } from "./support/RateWindows.js"

const cookieOf = (session: string) => `${COOKIE}=${session}`

const formTokenOf = (session: string) =>
  Effect.gen(function* () {
    const page = yield* request("/verify-email/new", { headers: { cookie: cookieOf(session) } })
    expect(page.status).toBe(200)
    const token = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1]
    expect(token).toBeDefined()
    return token ?? ""
  })

const post = (fields: Record<string, string>, session: string, origin: string | null = PUBLIC_ORIGIN) =>
  request("/verify-email/new", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookieOf(session),
      ...(origin === null ? {} : { origin })
    },
    body: new URLSearchParams(fields).toString()
  })

/** The verification links the outbox logged for `email`, oldest first. */
const linksTo = (email: string) =>
  logLines.filter((line) => line.startsWith("Outbox verify-email ") && line.includes(` to ${email}: `))

/** Waits (briefly) until the outbox has logged `count` verification links to `email`; their tokens. */
const tokensTo = (email: string, count: number) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 100 && linksTo(email).length < count; attempt++) {
      yield* Effect.sleep("50 millis")
    }
    return linksTo(email).map((line) =>
      decodeURIComponent(/\/verify-email\?token=([^\s"]+)/.exec(line)?.[1] ?? "")
    )
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`the new verification link page on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("sends a new link to the account's address, which verifies it", () =>
        Effect.gen(function* () {
          const account = yield* signUp("new-link")
          yield* linkTokenFor(account.email)
          const page = yield* request("/verify-email/new", { headers: { cookie: cookieOf(account.session) } })
          expect(page.status).toBe(200)
          expect(page.headers.get("cache-control")).toBe("no-store")
          expect(page.text).toContain(account.email)
          expect(page.text).toContain('<form method="post" action="/verify-email/new">')
          const sent = yield* post({ form_token: yield* formTokenOf(account.session) }, account.session)
          expect(sent.status).toBe(200)
          expect(sent.text).toContain("A new link is on its way")
          const tokens = yield* tokensTo(account.email, 2)
          expect(tokens).toHaveLength(2)
          expect(new Set(tokens).size).toBe(2)
          const verified = yield* call("/auth/verify-email", { body: { token: tokens[1] } })
          expect(verified.status).toBe(200)
          const profile = yield* call("/profile", { session: account.session })
          expect((profile.json as { emailVerified: boolean }).emailVerified).toBe(true)
          // Verified now: the page says so and sends nothing more.
          const after = yield* request("/verify-email/new", {
            headers: { cookie: cookieOf(account.session) }
          })
          expect(after.text).toContain("is already verified")
          expect(after.text).not.toContain("<form")
        })
      )

      it.effect("a verified account is told there is nothing to do, and a post sends nothing", () =>
        Effect.gen(function* () {
          const account = yield* signUpVerified("new-link-verified")
          const before = linksTo(account.email).length
          const page = yield* request("/verify-email/new", { headers: { cookie: cookieOf(account.session) } })
          expect(page.status).toBe(200)
          expect(page.text).toContain("is already verified")
          // A form token from before the verification (computed as the page would) sends nothing either.
          const answer = yield* post({ form_token: "x" }, account.session)
          expect(answer.status).toBe(403)
          yield* Effect.sleep("200 millis")
          expect(linksTo(account.email).length).toBe(before)
        })
      )

      it.effect("sends nothing for another site's post, another session's token, or no session", () =>
        Effect.gen(function* () {
          const account = yield* signUp("new-link-csrf")
          const other = yield* signUp("new-link-other")
          yield* linkTokenFor(account.email)
          const formToken = yield* formTokenOf(account.session)
          expect(
            (yield* post({ form_token: formToken }, account.session, "https://evil.example")).status
          ).toBe(403)
          expect((yield* post({ form_token: formToken }, account.session, null)).status).toBe(403)
          const foreignToken = yield* post({ form_token: yield* formTokenOf(other.session) }, account.session)
          expect(foreignToken.status).toBe(403)
          expect(foreignToken.text).toContain("does not belong to your session")
          const signedOut = yield* request("/verify-email/new", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_ORIGIN },
            body: `form_token=${formToken}`
          })
          expect(signedOut.status).toBe(401)
          const anonymous = yield* request("/verify-email/new")
          expect(anonymous.status).toBe(303)
          expect(anonymous.headers.get("location")).toBe("/sign-in?return_to=%2Fverify-email%2Fnew")
          yield* Effect.sleep("200 millis")
          expect(linksTo(account.email)).toHaveLength(1)
        })
      )

      it.effect(`sends at most ${NEW_LINKS_PER_HOUR} new links an hour; then 429 with Retry-After`, () =>
        // The links are counted per account, an hour at a time.
        inOneWindow(
          () =>
            Effect.gen(function* () {
              const account = yield* signUp("new-link-limit")
              const formToken = yield* formTokenOf(account.session)
              for (let i = 0; i < NEW_LINKS_PER_HOUR; i++) {
                expect(
                  (yield* post({ form_token: formToken }, account.session)).status,
                  `link ${i + 1}`
                ).toBe(200)
              }
              const limited = yield* post({ form_token: formToken }, account.session)
              expect(limited.status).toBe(429)
              expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
              expect((yield* tokensTo(account.email, NEW_LINKS_PER_HOUR + 1)).length).toBe(
                NEW_LINKS_PER_HOUR + 1
              )
            }),
          3_600_000
        )
      )
    })
  })
}

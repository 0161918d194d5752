// The sign-up page (extensions §9): a form with the same rules and limits as `auth.signUp`, whose
// problems come back beside the fields (what was typed kept, never the password), which carries
// `return_to` (a path of this service only) into the verification link and on, refuses a post from
// another site, and answers everything as a page, never cached nor framed.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import {
  COOKIE,
  call,
  foundationServer,
  logLines,
  PUBLIC_ORIGIN,
  sessionFrom,
  signUp,
  uniqueEmail
} from "./support/FoundationClient.js"
import { inOneWindow } from "./support/RateWindows.js"

const form = (fields: Record<string, string>, origin: string | null = PUBLIC_ORIGIN) =>
  request("/sign-up", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(origin === null ? {} : { origin })
    },
    body: new URLSearchParams(fields).toString()
  })

/** The verification link the outbox logged for `email`. */
const verificationLink = (email: string) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 100; attempt++) {
      const line = logLines.findLast(
        (text) => text.startsWith("Outbox verify-email ") && text.includes(` to ${email}: `)
      )
      const link = line === undefined ? undefined : /: (http\S+)$/.exec(line)?.[1]
      if (link !== undefined) return new URL(link)
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`No verification message to ${email}`)
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`the sign-up page on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("shows a labelled form, with links from the sign-in page that keep return_to", () =>
        Effect.gen(function* () {
          const page = yield* request("/sign-up?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dx")
          expect(page.status).toBe(200)
          expect(page.headers.get("cache-control")).toBe("no-store")
          expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
          expect(page.headers.get("content-security-policy")).not.toContain("script-src")
          expect(page.text).toContain('<form method="post" action="/sign-up" novalidate>')
          expect(page.text).toContain(
            '<input type="hidden" name="return_to" value="/oauth/authorize?client_id=x">'
          )
          expect(page.text).toContain('autocomplete="new-password"')
          expect(page.text).not.toContain("<script")
          const signIn = yield* request("/sign-in?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dx")
          expect(signIn.text).toContain('href="/sign-up?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dx"')
          expect(signIn.text).toContain(
            'href="/verify-email/new?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dx"'
          )
          // Without return_to, the sign-in page leads to the console.
          const plain = yield* request("/sign-in")
          expect(plain.text).toContain('<input type="hidden" name="return_to" value="/organizations">')
        })
      )

      it.effect(
        "creates the account, starts a session, mails a link that carries return_to, and sends the person to check their mail",
        () =>
          Effect.gen(function* () {
            const email = uniqueEmail("page-sign-up")
            const answer = yield* form({
              name: "Paula",
              email,
              password: "page sign-up passphrase",
              return_to: "/oauth/authorize?client_id=abc&state=1"
            })
            expect(answer.status).toBe(303)
            expect(answer.headers.get("location")).toBe(
              "/sign-up/check-email?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dabc%26state%3D1"
            )
            expect(answer.headers.get("set-cookie")).toContain("HttpOnly; Secure; SameSite=Lax; Path=/")
            const session = sessionFrom(answer)
            const profile = yield* call("/profile", { session })
            expect(profile.json).toMatchObject({ name: "Paula", email, emailVerified: false })
            const link = yield* verificationLink(email)
            expect(link.pathname).toBe("/verify-email")
            expect(link.searchParams.get("return_to")).toBe("/oauth/authorize?client_id=abc&state=1")
            // The link's page keeps it, and the outcome leads on to it.
            const confirm = yield* request(`${link.pathname}${link.search}`)
            expect(confirm.text).toContain(
              '<input type="hidden" name="return_to" value="/oauth/authorize?client_id=abc&amp;state=1">'
            )
            const verified = yield* request("/verify-email", {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_ORIGIN },
              body: new URLSearchParams({
                token: link.searchParams.get("token") ?? "",
                return_to: "/oauth/authorize?client_id=abc&state=1"
              }).toString()
            })
            expect(verified.status).toBe(200)
            expect(verified.text).toContain('href="/oauth/authorize?client_id=abc&amp;state=1"')
            const check = yield* request("/sign-up/check-email", {
              headers: { cookie: `${COOKIE}=${session}` }
            })
            expect(check.status).toBe(200)
            expect(check.text).toContain("Your address is confirmed")
            // Signed in already: the form is not shown again.
            const again = yield* request("/sign-up?return_to=%2Faccount", {
              headers: { cookie: `${COOKIE}=${session}` }
            })
            expect(again.status).toBe(303)
            expect(again.headers.get("location")).toBe("/account")
          })
      )

      it.effect("a return_to that leaves this service is dropped, from the link too", () =>
        Effect.gen(function* () {
          for (const returnTo of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
            const email = uniqueEmail("page-sign-up-evil")
            const answer = yield* form({
              name: "Eve",
              email,
              password: "an evil passphrase",
              return_to: returnTo
            })
            expect(answer.status, returnTo).toBe(303)
            expect(answer.headers.get("location"), returnTo).toBe("/sign-up/check-email")
            const link = yield* verificationLink(email)
            expect(link.searchParams.has("return_to"), returnTo).toBe(false)
          }
        })
      )

      it.effect("problems come back beside their fields, with what was typed and never the password", () =>
        Effect.gen(function* () {
          const empty = yield* form({ name: "", email: "", password: "", return_to: "/account" })
          expect(empty.status).toBe(400)
          expect(empty.headers.get("set-cookie")).toBeNull()
          expect(empty.text).toContain("<title>Error: Create an account · Podcast platform</title>")
          expect(empty.text).toContain('<a href="#field-name">Enter your name, at most 120 characters</a>')
          expect(empty.text).toContain(
            'aria-describedby="field-email-hint field-email-error" aria-invalid="true"'
          )
          expect(empty.text).toContain(
            '<a href="#field-password">Enter a password of 8 to 128 characters</a>'
          )

          const weak = yield* form({ name: "Wendy", email: "wendy@example.com", password: "password1" })
          expect(weak.status).toBe(400)
          expect(weak.text).toContain("This password is in a list of common passwords")
          expect(weak.text).toContain('value="Wendy"')
          expect(weak.text).toContain('value="wendy@example.com"')
          expect(weak.text).not.toContain("password1")

          const taken = yield* signUp("page-taken")
          const again = yield* form({ name: "Tom", email: taken.email, password: "another passphrase" })
          expect(again.status).toBe(409)
          expect(again.text).toContain("An account with this email address already exists")
          expect(again.headers.get("set-cookie")).toBeNull()

          const twice = yield* request("/sign-up", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_ORIGIN },
            body: "name=a&name=b&email=x%40example.com&password=whatever%20it%20is"
          })
          expect(twice.status).toBe(400)
          expect(twice.text).toContain("The field name appears twice.")
        })
      )

      it.effect("a post from another site creates nothing; JSON and other methods are refused as pages", () =>
        Effect.gen(function* () {
          const email = uniqueEmail("page-sign-up-csrf")
          const foreign = yield* form(
            { name: "Mallory", email, password: "a foreign passphrase" },
            "https://evil.example"
          )
          expect(foreign.status).toBe(403)
          expect(foreign.text).toContain(`This service's address is <a href="${PUBLIC_ORIGIN}/sign-up">`)
          expect(foreign.headers.get("set-cookie")).toBeNull()
          const signIn = yield* call("/auth/sign-in", { body: { email, password: "a foreign passphrase" } })
          expect(signIn.status).toBe(401)
          const json = yield* request("/sign-up", {
            method: "POST",
            headers: { "content-type": "application/json", origin: PUBLIC_ORIGIN },
            body: JSON.stringify({ name: "J", email, password: "a json passphrase" })
          })
          expect(json.status).toBe(400)
          expect(json.headers.get("content-type")).toBe("text/html; charset=utf-8")
          const put = yield* request("/sign-up", { method: "PUT" })
          expect(put.status).toBe(405)
          expect(put.headers.get("allow")).toBe("GET, HEAD, POST")
        })
      )

      it.effect(
        "shares auth.signUp's limit: past it the page is 429 and says when to try again, with what was typed",
        () =>
          inOneWindow(() =>
            Effect.gen(function* () {
              const email = uniqueEmail("page-sign-up-limit")
              // Each attempt the rules of auth.signUp weigh counts (a common password is refused after
              // counting), for this address and email, as auth.signUp's do.
              for (let attempt = 1; attempt <= 10; attempt++) {
                const answer = yield* form({ name: "Lim", email, password: "password" })
                expect(answer.status, `attempt ${attempt}`).toBe(400)
              }
              const limited = yield* form({ name: "Lim", email, password: "a limited passphrase" })
              expect(limited.status).toBe(429)
              const wait = Number(limited.headers.get("retry-after"))
              expect(wait).toBeGreaterThanOrEqual(1)
              expect(limited.text).toContain(`Wait ${wait} second`)
              expect(limited.text).toContain('value="Lim"')
              expect(limited.headers.get("set-cookie")).toBeNull()
            })
          )
      )
    })
  })
}

// The sign-in page (extensions §8): a form for browsers with the same rules and limits as
// `auth.signIn`, which returns to a path of this service (`return_to`) and nowhere else, refuses a
// post from another site, and answers every problem as the page again, never cached nor framed.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import {
  COOKIE,
  call,
  foundationServer,
  PUBLIC_ORIGIN,
  sessionFrom,
  signUp
} from "./support/FoundationClient.js"
import { inOneWindow } from "./support/RateWindows.js"

const form = (fields: Record<string, string>, origin: string | null = PUBLIC_ORIGIN) =>
  request("/sign-in", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(origin === null ? {} : { origin })
    },
    body: new URLSearchParams(fields).toString()
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`the sign-in page on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("shows a labelled form that posts back with the return path", () =>
        Effect.gen(function* () {
          const page = yield* request("/sign-in?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dx")
          expect(page.status).toBe(200)
          expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
          expect(page.headers.get("cache-control")).toBe("no-store")
          expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
          expect(page.headers.get("x-frame-options")).toBe("DENY")
          expect(page.text).toContain('<form method="post" action="/sign-in">')
          expect(page.text).toContain(
            '<input type="hidden" name="return_to" value="/oauth/authorize?client_id=x">'
          )
          expect(page.text).toContain('<label for="field-email">Email</label>')
          expect(page.text).toContain('autocomplete="current-password"')
          expect(page.text).not.toContain("<script")
        })
      )

      it.effect("signs in, sets the session cookie and returns to the path it came from", () =>
        Effect.gen(function* () {
          const account = yield* signUp("page-signer")
          const answer = yield* form({
            email: account.email,
            password: account.password,
            return_to: "/oauth/authorize?client_id=abc&state=1"
          })
          expect(answer.status).toBe(303)
          expect(answer.headers.get("location")).toBe("/oauth/authorize?client_id=abc&state=1")
          const session = sessionFrom(answer)
          expect(answer.headers.get("set-cookie")).toContain("HttpOnly; Secure; SameSite=Lax; Path=/")
          expect((yield* call("/profile", { session })).status).toBe(200)
          // Already signed in: the page sends the browser straight back.
          const again = yield* request("/sign-in?return_to=%2Fdocs", {
            headers: { cookie: `${COOKIE}=${session}` }
          })
          expect(again.status).toBe(303)
          expect(again.headers.get("location")).toBe("/docs")
        })
      )

      it.effect("returns only to paths of this service", () =>
        Effect.gen(function* () {
          const account = yield* signUp("page-redirect")
          for (const returnTo of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
            const answer = yield* form({
              email: account.email,
              password: account.password,
              return_to: returnTo
            })
            expect(answer.status, returnTo).toBe(303)
            expect(answer.headers.get("location"), returnTo).toBe("/")
          }
        })
      )

      it.effect("a wrong password comes back as the page with the same message as auth.signIn, 401", () =>
        Effect.gen(function* () {
          const account = yield* signUp("page-wrong")
          const wrong = yield* form({ email: account.email, password: "not the password", return_to: "/x" })
          expect(wrong.status).toBe(401)
          expect(wrong.headers.get("set-cookie")).toBeNull()
          expect(wrong.text).toContain("The email or password is incorrect.")
          expect(wrong.text).toContain('role="alert"')
          // What the person typed stays; the password does not.
          expect(wrong.text).toContain(`value="${account.email}"`)
          expect(wrong.text).not.toContain("not the password")
          const unknown = yield* form({
            email: "nobody@example.com",
            password: "whatever it is",
            return_to: "/"
          })
          expect(unknown.status).toBe(401)
          const empty = yield* form({ email: "", password: "", return_to: "/" })
          expect(empty.status).toBe(400)
        })
      )

      it.effect("a post from another site is refused; a post that is not a form is refused as a page", () =>
        Effect.gen(function* () {
          const account = yield* signUp("page-csrf")
          const foreign = yield* form(
            { email: account.email, password: account.password, return_to: "/" },
            "https://evil.example"
          )
          expect(foreign.status).toBe(403)
          expect(foreign.headers.get("set-cookie")).toBeNull()
          const json = yield* request("/sign-in", {
            method: "POST",
            headers: { "content-type": "application/json", origin: PUBLIC_ORIGIN },
            body: JSON.stringify({ email: account.email, password: account.password })
          })
          expect(json.status).toBe(400)
          expect(json.headers.get("content-type")).toBe("text/html; charset=utf-8")
          const put = yield* request("/sign-in", { method: "PUT" })
          expect(put.status).toBe(405)
          expect(put.headers.get("allow")).toBe("GET, HEAD, POST")
        })
      )

      it.effect(
        "shares auth.signIn's limit: the 11th attempt in a minute is 429 with Retry-After",
        () =>
          inOneWindow(() =>
            Effect.gen(function* () {
              const account = yield* signUp("page-limit")
              // The sign-up was the first attempt for this address and email.
              for (let attempt = 2; attempt <= 10; attempt++) {
                const answer = yield* form({
                  email: account.email,
                  password: "wrong password",
                  return_to: "/"
                })
                expect(answer.status, `attempt ${attempt}`).toBe(401)
              }
              const limited = yield* form({
                email: account.email,
                password: account.password,
                return_to: "/"
              })
              expect(limited.status).toBe(429)
              expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
              expect(limited.text).toContain("Too many sign-in attempts")
            })
          ),
        // Ten password hashes, one at a time: slow on a loaded machine, well inside the minute.
        60_000
      )
    })
  })
}

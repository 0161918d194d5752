// The sign-out page: a browser ends its own session with one button, as `auth.signOut` does for
// scripts (the session is revoked at once and the cookie cleared). The post must come from this
// service's page and carry the form token the page gave this session; anything else ends nothing.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import { COOKIE, call, foundationServer, PUBLIC_ORIGIN, signUp } from "./support/FoundationClient.js"

const cookieOf = (session: string) => `${COOKIE}=${session}`

/** The form token the sign-out page shows this session. */
const formTokenOf = (session: string) =>
  Effect.gen(function* () {
    const page = yield* request("/sign-out", { headers: { cookie: cookieOf(session) } })
    expect(page.status).toBe(200)
    const token = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1]
    expect(token).toBeDefined()
    return token ?? ""
  })

const post = (fields: Record<string, string>, session?: string, origin: string | null = PUBLIC_ORIGIN) =>
  request("/sign-out", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(origin === null ? {} : { origin }),
      ...(session === undefined ? {} : { cookie: cookieOf(session) })
    },
    body: new URLSearchParams(fields).toString()
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`the sign-out page on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("shows one button to a signed-in browser, and says so to one without a session", () =>
        Effect.gen(function* () {
          const account = yield* signUp("out-page")
          const page = yield* request("/sign-out", { headers: { cookie: cookieOf(account.session) } })
          expect(page.status).toBe(200)
          expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
          expect(page.headers.get("cache-control")).toBe("no-store")
          expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
          expect(page.text).toContain('<form method="post" action="/sign-out">')
          expect(page.text).toContain('<button type="submit">Sign out</button>')
          expect(page.text).not.toContain("<script")
          const anonymous = yield* request("/sign-out")
          expect(anonymous.status).toBe(200)
          expect(anonymous.text).toContain("You are signed out")
          expect(anonymous.text).toContain('href="/sign-in"')
          expect(anonymous.text).not.toContain("<form")
        })
      )

      it.effect("the button revokes the session at once, clears the cookie and says so", () =>
        Effect.gen(function* () {
          const account = yield* signUp("out-press")
          const other = yield* call("/auth/sign-in", {
            body: { email: account.email, password: account.password }
          })
          expect(other.status).toBe(200)
          const formToken = yield* formTokenOf(account.session)
          const answer = yield* post({ form_token: formToken }, account.session)
          expect(answer.status).toBe(303)
          expect(answer.headers.get("location")).toBe("/sign-out")
          expect(answer.headers.get("set-cookie")).toBe(
            `${COOKIE}=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0`
          )
          expect((yield* call("/profile", { session: account.session })).status).toBe(401)
          // Only this browser's session ended.
          const otherSession = /=([^;]*)/.exec(other.headers.get("set-cookie") ?? "")?.[1] ?? ""
          expect((yield* call("/profile", { session: otherSession })).status).toBe(200)
          // Pressed again (a second tab): nothing left to end, the cookie is cleared again.
          const again = yield* post({ form_token: formToken }, account.session)
          expect(again.status).toBe(303)
          expect(again.headers.get("set-cookie")).toContain("Max-Age=0")
        })
      )

      it.effect(
        "ends nothing for a post from another site, without this session's token, or unreadable",
        () =>
          Effect.gen(function* () {
            const account = yield* signUp("out-csrf")
            const other = yield* signUp("out-csrf-other")
            const formToken = yield* formTokenOf(account.session)
            const foreign = yield* post({ form_token: formToken }, account.session, "https://evil.example")
            expect(foreign.status).toBe(403)
            const noOrigin = yield* post({ form_token: formToken }, account.session, null)
            expect(noOrigin.status).toBe(403)
            const missing = yield* post({ unrelated: "1" }, account.session)
            expect(missing.status).toBe(403)
            expect(missing.text).toContain("does not belong to your session")
            // Another session's token does not end this one.
            const othersToken = yield* formTokenOf(other.session)
            expect((yield* post({ form_token: othersToken }, account.session)).status).toBe(403)
            const twice = yield* request("/sign-out", {
              method: "POST",
              headers: {
                "content-type": "application/x-www-form-urlencoded",
                origin: PUBLIC_ORIGIN,
                cookie: cookieOf(other.session)
              },
              body: `form_token=${othersToken}&form_token=${othersToken}`
            })
            expect(twice.status).toBe(400)
            const json = yield* request("/sign-out", {
              method: "POST",
              headers: {
                "content-type": "application/json",
                origin: PUBLIC_ORIGIN,
                cookie: cookieOf(other.session)
              },
              body: JSON.stringify({ form_token: othersToken })
            })
            expect(json.status).toBe(400)
            expect(json.headers.get("content-type")).toBe("text/html; charset=utf-8")
            const put = yield* request("/sign-out", { method: "PUT" })
            expect(put.status).toBe(405)
            expect(put.headers.get("allow")).toBe("GET, HEAD, POST")
            // None of the refused posts ended the other session.
            expect((yield* call("/profile", { session: other.session })).status).toBe(200)
          })
      )
    })
  })
}

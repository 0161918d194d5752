// Signing out as a person does it, in headless Chromium with JavaScript off: sign in on the sign-in
// page, which returns to the sign-out page; press its one button; the page says so, the browser has
// no session cookie left, and the session it held is refused by the API at once.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { freshDataDir } from "../foundation/support/Backends.js"
import { COOKIE, foundationServer } from "../foundation/support/FoundationClient.js"
import { browserUnavailable, launchBrowser, newContext } from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const PASSWORD = "sign-out password"

const embedded = Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))

/** The status of the credential context for a session cookie value. */
const contextStatus = (session: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1/credential-context`, {
      headers: { cookie: `${COOKIE}=${session}` }
    })
    return response.status
  })

describeNeeding(browserUnavailable)("signing out in a browser", () => {
  layer(foundationServer(embedded, { PORT: String(port), PUBLIC_ORIGIN: origin }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "a person signs in, presses Sign out, and the session is gone from the browser and the service",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const email = `sign-out.${Date.now()}@example.com`
            const signedUp = yield* Effect.promise(() =>
              fetch(`${origin}/api/v1/auth/sign-up`, {
                method: "POST",
                headers: { "content-type": "application/json", origin },
                body: JSON.stringify({ email, password: PASSWORD, name: "Sam" })
              })
            )
            expect(signedUp.status).toBe(200)

            const browser = yield* launchBrowser
            const { context } = yield* newContext(browser, { javaScriptEnabled: false })
            const page = yield* Effect.promise(() => context.newPage())
            yield* Effect.promise(() => page.goto(`${origin}/sign-out`))
            expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe("You are signed out")

            yield* Effect.promise(() => page.goto(`${origin}/sign-in?return_to=%2Fsign-out`))
            yield* Effect.promise(() => page.getByLabel("Email").fill(email))
            yield* Effect.promise(() => page.getByLabel("Password").fill(PASSWORD))
            yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())
            yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/sign-out"))
            expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe("Sign out")
            const held = (yield* Effect.promise(() => context.cookies(origin))).find((c) => c.name === COOKIE)
            expect(held?.value).toBeTruthy()
            const session = held?.value ?? ""
            expect(yield* contextStatus(session)).toBe(200)

            yield* Effect.promise(() => page.getByRole("button", { name: "Sign out" }).click())
            yield* Effect.promise(() => page.locator("h1", { hasText: "You are signed out" }).waitFor())
            expect(new URL(page.url()).pathname).toBe("/sign-out")
            const left = (yield* Effect.promise(() => context.cookies(origin))).find((c) => c.name === COOKIE)
            expect(left).toBeUndefined()
            expect(yield* contextStatus(session)).toBe(401)
          })
        )
    )
  })
})

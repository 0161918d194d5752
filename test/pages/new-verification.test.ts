// A person whose verification link went astray gets a new one, in headless Chromium with JavaScript
// off: the page sends them to sign in and back, its button sends the link, and the link (read from
// the outbox's log line, as a person running the service locally reads it) verifies the address.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { freshDataDir } from "../foundation/support/Backends.js"
import { foundationServer, logLines } from "../foundation/support/FoundationClient.js"
import { browserUnavailable, launchBrowser, newContext } from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const PASSWORD = "new link password"

const embedded = Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))

/** The verification links logged for `email`, oldest first, once there are `count` of them. */
const linksTo = (email: string, count: number) =>
  Effect.gen(function* () {
    const links = () =>
      logLines.flatMap((line) =>
        line.startsWith("Outbox verify-email ") && line.includes(` to ${email}: `)
          ? [/: (http\S+)$/.exec(line)?.[1] ?? ""]
          : []
      )
    for (let attempt = 0; attempt < 100 && links().length < count; attempt++) yield* Effect.sleep("50 millis")
    return links()
  })

describeNeeding(browserUnavailable)("a new verification link in a browser", () => {
  layer(foundationServer(embedded, { PORT: String(port), PUBLIC_ORIGIN: origin }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("a person signs in, asks for a new link, and the new link verifies the address", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const email = `new-link.${Date.now()}@example.com`
          const signedUp = yield* Effect.promise(() =>
            fetch(`${origin}/api/v1/auth/sign-up`, {
              method: "POST",
              headers: { "content-type": "application/json", origin },
              body: JSON.stringify({ email, password: PASSWORD, name: "Nell" })
            })
          )
          expect(signedUp.status).toBe(200)
          expect(yield* linksTo(email, 1)).toHaveLength(1)

          const browser = yield* launchBrowser
          const { context } = yield* newContext(browser, { javaScriptEnabled: false })
          const page = yield* Effect.promise(() => context.newPage())
          yield* Effect.promise(() => page.goto(`${origin}/verify-email/new`))
          expect(new URL(page.url()).pathname).toBe("/sign-in")
          yield* Effect.promise(() => page.getByLabel("Email").fill(email))
          yield* Effect.promise(() => page.getByLabel("Password").fill(PASSWORD))
          yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())
          yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/verify-email/new"))
          expect(yield* Effect.promise(() => page.locator("main").textContent())).toContain(email)

          yield* Effect.promise(() => page.getByRole("button", { name: "Send a new link" }).click())
          yield* Effect.promise(() => page.locator("h1", { hasText: "A new link is on its way" }).waitFor())
          const links = yield* linksTo(email, 2)
          expect(links).toHaveLength(2)
          const newest = links[1] ?? ""
          expect(newest.startsWith(`${origin}/verify-email?token=`)).toBe(true)

          yield* Effect.promise(() => page.goto(newest))
          yield* Effect.promise(() => page.getByRole("button", { name: "Verify my email address" }).click())
          yield* Effect.promise(() => page.locator("h1", { hasText: "Email address verified" }).waitFor())
          yield* Effect.promise(() => page.goto(`${origin}/verify-email/new`))
          expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe(
            "Your address is verified"
          )
        })
      )
    )
  })
})

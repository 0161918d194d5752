// The newcomer's path (extensions §9), in headless Chromium, following only what the pages offer:
// an app sends a person without an account to the authorization endpoint; they reach the sign-in
// page, follow "Create an account", get their mistakes said beside the fields, sign up, are told to
// check their mail, follow the mailed link (read from the outbox's log), verify, continue to the
// consent page, create an organization from there, come back, allow, and the app exchanges the code
// at its redirect URI for a token that reads that organization. Then the JSON API sees what the
// pages did. Each setup: PGlite with JavaScript off, PostgreSQL with it on (axe on every page then).
import * as Http from "node:http"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { browserUnavailable, fileBrowser } from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"
import {
  api,
  appServer,
  checkPage,
  consoleServer,
  consoleSetups,
  exchangeCode,
  expectPersonal,
  fill,
  follow,
  heading,
  mailedLink,
  mainText,
  open,
  personBrowser,
  press,
  sessionCookieOf,
  setupName,
  startAuthorization,
  uniqueEmail
} from "./support/Console.js"

// One Chromium for the file; each setup starts its own server.
const browser = fileBrowser()

for (const setup of consoleSetups) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  describeNeeding(browserUnavailable, setup.backend.missing)(
    `a newcomer from an app's authorization link (${setupName(setup)})`,
    () => {
      browser.layer(consoleServer(setup.backend, port), { timeout: 120_000 })((it) => {
        it.effect(
          "signs up, verifies by the mailed link, creates an organization, allows, and the app gets a working code",
          () =>
            Effect.scoped(
              Effect.gen(function* () {
                const app = yield* appServer
                const authorization = yield* startAuthorization(origin, app, "Notes agent")
                const authorize = authorization.url
                const js = setup.javaScript
                const { context, page } = yield* personBrowser(js)

                // Signed out: the authorization sends the person to sign in, which offers sign-up.
                yield* open(page, authorize.href)
                expect(new URL(page.url()).pathname).toBe("/sign-in")
                yield* checkPage(page, "sign-in", js)
                yield* follow(page, "Create an account")
                expect(new URL(page.url()).pathname).toBe("/sign-up")
                expect(yield* heading(page)).toBe("Create an account")
                yield* checkPage(page, "sign-up", js)

                // Nothing typed: every problem at the top and beside its field.
                let answer = yield* press(page, "Create account")
                expect(answer.status()).toBe(400)
                expect(yield* Effect.promise(() => page.title())).toMatch(/^Error: /)
                const summary = page.getByRole("alert").filter({ hasText: "There is a problem" })
                expect(yield* Effect.promise(() => summary.getByRole("link").allTextContents())).toEqual([
                  "Enter your name, at most 120 characters",
                  "Enter an email address in the correct format, like name@example.com",
                  "Enter a password of 8 to 128 characters"
                ])
                expect(
                  yield* Effect.promise(() => page.getByLabel("Your name").getAttribute("aria-invalid"))
                ).toBe("true")
                yield* checkPage(page, "sign-up with errors", js)

                // A password that is easy to guess: said beside it; what was typed stays, the password not.
                const email = uniqueEmail("newcomer")
                yield* fill(page, "Your name", "Nora Newcomer")
                yield* fill(page, "Email address", email)
                yield* fill(page, "Password", "password")
                answer = yield* press(page, "Create account")
                expect(answer.status()).toBe(400)
                expect(yield* mainText(page)).toContain("This password is in a list of common passwords")
                expect(yield* Effect.promise(() => page.getByLabel("Your name").inputValue())).toBe(
                  "Nora Newcomer"
                )
                expect(yield* Effect.promise(() => page.getByLabel("Email address").inputValue())).toBe(email)
                expect(yield* Effect.promise(() => page.getByLabel("Password").inputValue())).toBe("")

                yield* fill(page, "Password", "a newcomer's own passphrase")
                answer = yield* press(page, "Create account")
                expect(answer.status()).toBe(200)
                yield* expectPersonal(answer)
                expect(new URL(page.url()).pathname).toBe("/sign-up/check-email")
                expect(yield* heading(page)).toBe("Check your email")
                expect(yield* mainText(page)).toContain(email)
                // Who is signed in, and sign-out, on every page of a signed-in person.
                expect(yield* Effect.promise(() => page.getByRole("banner").textContent())).toContain(
                  "Signed in as Nora Newcomer"
                )
                expect(
                  yield* Effect.promise(() =>
                    page.getByRole("banner").getByRole("link", { name: "Sign out" }).count()
                  )
                ).toBe(1)
                yield* checkPage(page, "check your email", js)

                // The mailed link carries where the person was going, through verification.
                const link = yield* mailedLink("verify-email", email)
                expect(new URL(link).searchParams.get("return_to")).toBe(
                  `${authorize.pathname}${authorize.search}`
                )
                yield* open(page, link)
                expect(yield* heading(page)).toBe("Confirm your email address")
                yield* checkPage(page, "confirm email", js)
                yield* press(page, "Verify my email address")
                expect(yield* heading(page)).toBe("Email address verified")
                yield* checkPage(page, "email verified", js)
                yield* follow(page, "Continue where you were")

                // The consent page: no organization yet, and the way to make one.
                expect(new URL(page.url()).pathname).toBe("/oauth/authorize")
                expect(yield* heading(page)).toBe("Allow Notes agent to act for you?")
                expect(yield* Effect.promise(() => page.getByRole("button", { name: "Allow" }).count())).toBe(
                  0
                )
                yield* checkPage(page, "consent without organizations", js)
                yield* follow(page, "Create an organization")
                expect(new URL(page.url()).pathname).toBe("/organizations")
                yield* checkPage(page, "organizations from consent", js)
                answer = yield* press(page, "Create organization")
                expect(answer.status()).toBe(400)
                expect(yield* mainText(page)).toContain("Enter the organization's name")
                yield* fill(page, "Organization name", "Nora's Notes")
                yield* press(page, "Create organization")

                // Back on the consent page, with the new organization to pick.
                expect(new URL(page.url()).pathname).toBe("/oauth/authorize")
                yield* Effect.promise(() => page.getByRole("radio", { name: /Nora's Notes/ }).check())
                yield* checkPage(page, "consent", js)
                yield* Effect.promise(() => page.getByRole("button", { name: "Allow" }).click())
                yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/callback"))

                expect(app.callbacks.length).toBe(1)
                const tokens = yield* exchangeCode(origin, app, authorization)

                // The JSON API sees what the pages did: a verified account owning the organization.
                const cookie = yield* sessionCookieOf(context, origin)
                const profile = yield* api(origin, "/profile", { cookie })
                expect(profile.json).toMatchObject({ name: "Nora Newcomer", email, emailVerified: true })
                const organizations = yield* api(origin, "/organizations", { cookie })
                expect(organizations.json).toEqual([
                  expect.objectContaining({ name: "Nora's Notes", role: "owner" })
                ])
                const organizationId = (organizations.json as Array<{ id: string }>)[0]?.id ?? ""
                const read = yield* Effect.promise(async () => {
                  const response = await fetch(`${origin}/api/v1/organizations/${organizationId}`, {
                    headers: { authorization: `Bearer ${tokens.access_token}` }
                  })
                  return { status: response.status, json: (await response.json()) as unknown }
                })
                expect(read.status).toBe(200)
                expect(read.json).toMatchObject({ id: organizationId, name: "Nora's Notes" })
                const connections = yield* api(origin, "/connections", { cookie })
                expect(connections.json).toMatchObject({
                  items: [{ clientName: "Notes agent", organization: { id: organizationId } }]
                })
              })
            ),
          120_000
        )

        it.effect("a page opened at localhost is sent to the public address before any form is shown", () =>
          Effect.gen(function* () {
            const answer = yield* Effect.promise(
              () =>
                new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
                  const request = Http.request(
                    {
                      host: "127.0.0.1",
                      port,
                      path: "/sign-in?return_to=%2Faccount",
                      headers: { host: `localhost:${port}` }
                    },
                    (response) => {
                      response.resume()
                      resolve({ status: response.statusCode ?? 0, location: response.headers.location })
                    }
                  )
                  request.on("error", reject)
                  request.end()
                })
            )
            expect(answer.status).toBe(307)
            expect(answer.location).toBe(`${origin}/sign-in?return_to=%2Faccount`)
          })
        )
      })
    }
  )
}

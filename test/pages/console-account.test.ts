// The account page (extensions §9) as a person uses it in headless Chromium, by labels and roles:
// the profile (and its theme on every page), a change of email address confirmed by the mailed link,
// the password (its refusals beside the fields), the sessions (ending another one), and the apps
// they connected (disconnecting one); the JSON API sees each change. Each setup: PGlite with
// JavaScript off, PostgreSQL with it on (then axe and the phone width on every page).
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { browserUnavailable, fileBrowser } from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"
import {
  allowInBrowser,
  api,
  appServer,
  bearerStatus,
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
  signInOnPage,
  startAuthorization,
  uniqueEmail,
  verifiedAccount
} from "./support/Console.js"

const PASSWORD = "an account page passphrase"

// One Chromium for the file; each setup starts its own server.
const browser = fileBrowser()

for (const setup of consoleSetups) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const js = setup.javaScript
  describeNeeding(browserUnavailable, setup.backend.missing)(`the account page (${setupName(setup)})`, () => {
    browser.layer(consoleServer(setup.backend, port), { timeout: 120_000 })((it) => {
      it.effect(
        "the profile is saved, its theme applies to every page, and a new email address is confirmed by its link",
        () =>
          Effect.scoped(
            Effect.gen(function* () {
              const person = yield* verifiedAccount(origin, "ada", PASSWORD)
              const { context, page } = yield* personBrowser(js)
              // Signing in without a destination leads to the console.
              yield* signInOnPage(page, origin, person.email, PASSWORD)
              expect(new URL(page.url()).pathname).toBe("/organizations")
              const answer = yield* follow(page, "Account")
              yield* expectPersonal(answer)
              expect(yield* heading(page)).toBe("Your account")
              yield* checkPage(page, "account", js)

              // Empty names: both said beside their fields and at the top.
              yield* fill(page, "Name", "")
              yield* fill(page, "Preferred name", "")
              const refused = yield* press(page, "Save profile")
              expect(refused.status()).toBe(400)
              const summary = page.getByRole("alert").filter({ hasText: "There is a problem" })
              expect(yield* Effect.promise(() => summary.getByRole("link").allTextContents())).toEqual([
                "Enter your name, at most 120 characters",
                "Enter the name we should call you, at most 80 characters"
              ])
              yield* checkPage(page, "account with errors", js)

              yield* fill(page, "Name", "Ada Lovelace")
              yield* fill(page, "Preferred name", "Ada")
              yield* Effect.promise(() => page.getByRole("radio", { name: "Dark" }).check())
              yield* press(page, "Save profile")
              expect(yield* mainText(page)).toContain("Your profile is saved.")
              expect(yield* Effect.promise(() => page.locator("html").getAttribute("data-theme"))).toBe(
                "dark"
              )
              expect(yield* Effect.promise(() => page.getByRole("banner").textContent())).toContain(
                "Signed in as Ada"
              )
              // The dark theme holds whatever the system prefers: the page's background is dark.
              if (js) {
                const background = yield* Effect.promise(
                  () => page.evaluate("getComputedStyle(document.body).backgroundColor") as Promise<string>
                )
                expect(background).toBe("rgb(21, 23, 26)")
                yield* checkPage(page, "account dark theme", js)
              }
              yield* follow(page, "Organizations")
              expect(yield* Effect.promise(() => page.locator("html").getAttribute("data-theme"))).toBe(
                "dark"
              )
              const cookie = yield* sessionCookieOf(context, origin)
              expect((yield* api(origin, "/profile", { cookie })).json).toMatchObject({
                name: "Ada Lovelace",
                preferredName: "Ada",
                theme: "dark"
              })

              // Back to the system's theme, then a new address.
              yield* follow(page, "Account")
              yield* Effect.promise(() => page.getByRole("radio", { name: /Same as this device/ }).check())
              yield* press(page, "Save profile")
              expect(yield* Effect.promise(() => page.locator("html").getAttribute("data-theme"))).toBeNull()
              yield* fill(page, "New email address", "not an address")
              expect((yield* press(page, "Change email address")).status()).toBe(400)
              expect(yield* Effect.promise(() => page.getByLabel("New email address").inputValue())).toBe(
                "not an address"
              )
              const newEmail = uniqueEmail("ada-new")
              yield* fill(page, "New email address", newEmail)
              yield* press(page, "Change email address")
              expect(yield* mainText(page)).toContain("We sent a link to the new address")
              expect(yield* mainText(page)).toContain(person.email)
              const link = yield* mailedLink("change-email", newEmail)
              yield* open(page, link)
              yield* press(page, "Verify my email address")
              expect(yield* heading(page)).toBe("Email address verified")
              yield* follow(page, "Back to your account")
              expect(yield* mainText(page)).toContain(newEmail)
              expect((yield* api(origin, "/profile", { cookie })).json).toMatchObject({ email: newEmail })
            })
          ),
        120_000
      )

      it.effect(
        "a password change refuses a wrong current password and a weak new one, then signs out the other sessions",
        () =>
          Effect.scoped(
            Effect.gen(function* () {
              const person = yield* verifiedAccount(origin, "grace", PASSWORD)
              const { context, page } = yield* personBrowser(js)
              yield* signInOnPage(page, origin, person.email, PASSWORD, "/sign-in?return_to=%2Faccount")
              expect(new URL(page.url()).pathname).toBe("/account")

              yield* fill(page, "Current password", "not my password")
              yield* fill(page, "New password", "a brand new passphrase")
              expect((yield* press(page, "Change password")).status()).toBe(400)
              expect(yield* mainText(page)).toContain("Your current password is not right")
              expect(yield* Effect.promise(() => page.getByLabel("Current password").inputValue())).toBe("")
              expect(
                yield* Effect.promise(() => page.getByLabel("Current password").getAttribute("aria-invalid"))
              ).toBe("true")

              yield* fill(page, "Current password", PASSWORD)
              yield* fill(page, "New password", "12345678")
              expect((yield* press(page, "Change password")).status()).toBe(400)
              expect(yield* mainText(page)).toContain("choose another")

              yield* fill(page, "Current password", PASSWORD)
              yield* fill(page, "New password", "a brand new passphrase")
              yield* press(page, "Change password")
              expect(yield* mainText(page)).toContain("Your password is changed.")
              // The session the account had from signing up is signed out; this browser's is not.
              expect((yield* api(origin, "/profile", { cookie: person.cookie })).status).toBe(401)
              const cookie = yield* sessionCookieOf(context, origin)
              expect((yield* api(origin, "/profile", { cookie })).status).toBe(200)
              const signIn = yield* api(origin, "/auth/sign-in", {
                body: { email: person.email, password: "a brand new passphrase" }
              })
              expect(signIn.status).toBe(200)
            })
          ),
        120_000
      )

      it.effect(
        "another session is ended from the list, and a connected app is disconnected",
        () =>
          Effect.scoped(
            Effect.gen(function* () {
              const app = yield* appServer
              const person = yield* verifiedAccount(origin, "hedy", PASSWORD)
              expect(
                (yield* api(origin, "/organizations", {
                  cookie: person.cookie,
                  body: { name: "Hedy's Lab" }
                })).status
              ).toBe(200)
              const { context, page } = yield* personBrowser(js)
              yield* signInOnPage(page, origin, person.email, PASSWORD, "/sign-in?return_to=%2Faccount")
              expect(
                yield* Effect.promise(() => page.getByRole("button", { name: /^End session/ }).count())
              ).toBe(1)
              expect(yield* mainText(page)).toContain("This browser")
              expect(yield* mainText(page)).toContain("You have not connected any app.")

              // The session from signing up (made by the API's client) is ended here.
              yield* press(page, /^End session/)
              expect(yield* mainText(page)).toContain("The session is ended")
              expect((yield* api(origin, "/profile", { cookie: person.cookie })).status).toBe(401)
              expect(
                yield* Effect.promise(() => page.getByRole("button", { name: /^End session/ }).count())
              ).toBe(0)

              // An app connected in this browser appears, and is disconnected.
              const authorization = yield* startAuthorization(origin, app, "Lab notebook")
              yield* allowInBrowser(page, authorization, /Hedy's Lab/)
              const tokens = yield* exchangeCode(origin, app, authorization)
              const cookie = yield* sessionCookieOf(context, origin)
              const organizations = (yield* api(origin, "/organizations", { cookie })).json as Array<{
                id: string
              }>
              const organizationPath = `/organizations/${organizations[0]?.id ?? ""}`
              expect(yield* bearerStatus(origin, organizationPath, tokens.access_token)).toBe(200)
              yield* open(page, `${origin}/account#connections`)
              const row = page.getByRole("row").filter({ hasText: "Lab notebook" })
              expect(yield* Effect.promise(() => row.textContent())).toContain("Hedy's Lab")
              yield* checkPage(page, "account with a connected app", js)
              yield* press(page, "Disconnect Lab notebook from Hedy's Lab")
              expect(yield* mainText(page)).toContain("The app is disconnected")
              expect(yield* mainText(page)).toContain("You have not connected any app.")
              expect(yield* bearerStatus(origin, organizationPath, tokens.access_token)).toBe(401)
              expect((yield* api(origin, "/connections", { cookie })).json).toMatchObject({ items: [] })
            })
          ),
        120_000
      )
    })
  })
}

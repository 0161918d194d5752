// A person in headless Chromium answering an OAuth authorization request: the browser opens the
// authorization URL, is sent to the sign-in page, signs in, and on the consent page picks one of the
// person's organizations and allows (or denies), as agent tests and the conformance suite's
// authorization scenario need a person to.
import * as Effect from "effect/Effect"
import type { Browser, Page } from "playwright-core"
import { newContext } from "./Browser.js"

export interface Person {
  readonly email: string
  readonly password: string
}

export interface Decision {
  /** The organization to pick, by (a part of) its name. */
  readonly organization: string
  /** Scopes to leave unticked on the consent page, to grant fewer than asked. */
  readonly withhold?: ReadonlyArray<string>
  /** Where the browser lands afterwards (the client's redirect URI), checked by its path. */
  readonly redirectPath?: string
}

/** What the consent page said, and where the browser went. */
export interface Consent {
  readonly consentText: string
  readonly landedOn: URL
}

const signIn = (page: Page, person: Person) =>
  Effect.promise(async () => {
    await page.getByLabel("Email").fill(person.email)
    await page.getByLabel("Password").fill(person.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL((url) => url.pathname === "/oauth/authorize", { timeout: 15_000 })
  })

/** Opens `authorizationUrl` in a fresh context, signs in as `person` and allows as `decision` says. */
export const approveInBrowser = (
  browser: Browser,
  authorizationUrl: string,
  person: Person,
  decision: Decision
) =>
  Effect.gen(function* () {
    const { context } = yield* newContext(browser)
    const page = yield* Effect.promise(() => context.newPage())
    yield* Effect.promise(() => page.goto(authorizationUrl))
    if (new URL(page.url()).pathname === "/sign-in") yield* signIn(page, person)
    const consentText = (yield* Effect.promise(() => page.locator("main").textContent())) ?? ""
    yield* Effect.promise(() => page.getByRole("radio", { name: new RegExp(decision.organization) }).check())
    for (const scope of decision.withhold ?? []) {
      yield* Effect.promise(() => page.locator(`input[name="grant.${scope}"]`).uncheck())
    }
    const redirectPath = decision.redirectPath ?? "/callback"
    yield* Effect.promise(() =>
      Promise.all([
        page.waitForURL((url) => url.pathname === redirectPath, { timeout: 15_000 }),
        page.getByRole("button", { name: "Allow" }).click()
      ])
    )
    return { consentText, landedOn: new URL(page.url()) } satisfies Consent
  })

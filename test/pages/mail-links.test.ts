// The links the service mails, followed in headless Chromium with JavaScript off as a person would:
// the verification link (a page with one button; only the press verifies, so a mail scanner's GET
// uses nothing up) and the invitation link (signed out → sign-in → back → accept or reject), with
// the unhappy paths said on the page. The server listens on a port chosen first, so that its
// PUBLIC_ORIGIN (and so every mailed link) is the address the browser uses; the links are read from
// the outbox's log lines, as a person running the service locally reads them.
import type { AddressInfo } from "node:net"
import { createServer } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Page, Response } from "playwright-core"
import { hasPostgres } from "../foundation/support/Backends.js"
import { logLines, postgresFoundationServer } from "../foundation/support/FoundationClient.js"
import { browserUnavailable, launchBrowser, newContext, offLoopback } from "../support/Browser.js"

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as AddressInfo
      server.close(() => resolve(address.port))
    })
  })

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const PASSWORD = "mail link password"

interface ApiAnswer {
  readonly status: number
  readonly json: Record<string, unknown>
  readonly cookie: string | undefined
}

/** One JSON call to the foundation API as a script on this service's origin makes it. */
const api = (
  path: string,
  options: { readonly body?: unknown; readonly cookie?: string; readonly method?: string } = {}
) =>
  Effect.promise(async (): Promise<ApiAnswer> => {
    const method = options.method ?? (options.body === undefined ? "GET" : "POST")
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: {
        ...(method === "GET" ? {} : { origin }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.cookie === undefined ? {} : { cookie: options.cookie })
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
    const text = await response.text()
    return {
      status: response.status,
      json: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>,
      cookie: response.headers.get("set-cookie")?.split(";")[0]
    }
  })

let counter = 0
interface Person {
  readonly email: string
  readonly cookie: string
}

const signUp = (label: string) =>
  Effect.gen(function* () {
    const email = `${label}.${process.pid}.${Date.now()}.${counter++}@example.com`
    const answer = yield* api("/auth/sign-up", { body: { email, password: PASSWORD, name: label } })
    expect(answer.status).toBe(200)
    return { email, cookie: answer.cookie ?? "" } satisfies Person
  })

/** The link of the newest outbox message of `kind` to `recipient`, as the log shows it. */
const mailedLink = (kind: "verify-email" | "change-email" | "invitation", recipient: string) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 100; attempt++) {
      const line = logLines.findLast(
        (text) => text.startsWith(`Outbox ${kind} `) && text.includes(` to ${recipient}: `)
      )
      const link = line === undefined ? undefined : /: (http\S+)$/.exec(line)?.[1]
      if (link !== undefined) return link
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`No ${kind} message to ${recipient}`)
  })

const profileOf = (person: Person) =>
  Effect.map(api("/profile", { cookie: person.cookie }), (answer) => answer.json)

const heading = (page: Page) => Effect.promise(async () => (await page.locator("h1").textContent()) ?? "")
const mainText = (page: Page) => Effect.promise(async () => (await page.locator("main").textContent()) ?? "")

/** Goes to `url` and returns the answer of the document. */
const open = (page: Page, url: string) =>
  Effect.promise(async () => {
    const response = await page.goto(url)
    if (response === null) throw new Error(`No answer for ${url}`)
    return response
  })

/** Presses a button and returns the answer of the page it leads to (after any redirects). */
const press = (page: Page, name: string | RegExp) =>
  Effect.promise(async (): Promise<Response> => {
    const [response] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().isNavigationRequest() && response.status() !== 303
      ),
      page.getByRole("button", { name }).click()
    ])
    return response
  })

/** The headers every one of these pages carries: personal (never stored) and never framed. */
const expectPersonalPage = (response: Response) =>
  Effect.promise(async () => {
    const headers = await response.allHeaders()
    expect(headers["cache-control"]).toBe("no-store")
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'")
    expect(headers["content-type"]).toBe("text/html; charset=utf-8")
  })

describe.skipIf(browserUnavailable !== undefined || !hasPostgres)(
  "the links the service mails, in a browser",
  () => {
    layer(postgresFoundationServer({ PORT: String(port), PUBLIC_ORIGIN: origin }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "the verification link shows a button, verifies only when pressed and says so; used again it says it no longer works",
        () =>
          Effect.scoped(
            Effect.gen(function* () {
              const person = yield* signUp("verifier")
              const link = yield* mailedLink("verify-email", person.email)
              expect(link.startsWith(`${origin}/verify-email?token=`)).toBe(true)
              const browser = yield* launchBrowser
              const { context, requests } = yield* newContext(browser, { javaScriptEnabled: false })
              const page = yield* Effect.promise(() => context.newPage())

              const shown = yield* open(page, link)
              expect(shown.status()).toBe(200)
              yield* expectPersonalPage(shown)
              expect(yield* heading(page)).toBe("Confirm your email address")
              // Opening the link (what a mail scanner does) verifies nothing.
              expect((yield* profileOf(person)).emailVerified).toBe(false)

              const verified = yield* press(page, "Verify my email address")
              expect(verified.status()).toBe(200)
              yield* expectPersonalPage(verified)
              expect(yield* heading(page)).toBe("Email address verified")
              expect(yield* Effect.promise(() => page.getByRole("status").textContent())).toContain(
                person.email
              )
              expect((yield* profileOf(person)).emailVerified).toBe(true)

              yield* open(page, link)
              const again = yield* press(page, "Verify my email address")
              expect(again.status()).toBe(400)
              expect(yield* heading(page)).toBe("This link no longer works")
              expect(offLoopback(requests)).toEqual([])
            })
          ),
        60_000
      )

      it.effect("the link of an email change changes the account's address once pressed, and says so", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const person = yield* signUp("changer")
            const newEmail = `new.${person.email}`
            const asked = yield* api("/profile/email", { cookie: person.cookie, body: { email: newEmail } })
            expect(asked.status).toBe(200)
            const link = yield* mailedLink("change-email", newEmail)
            const browser = yield* launchBrowser
            const { context } = yield* newContext(browser, { javaScriptEnabled: false })
            const page = yield* Effect.promise(() => context.newPage())
            yield* open(page, link)
            expect((yield* profileOf(person)).email).toBe(person.email)
            const changed = yield* press(page, "Verify my email address")
            expect(changed.status()).toBe(200)
            expect(yield* Effect.promise(() => page.getByRole("status").textContent())).toContain(
              `Your account's email address is now ${newEmail}`
            )
            expect((yield* profileOf(person)).email).toBe(newEmail)
          })
        )
      )

      it.effect("a verification link without a usable token says so when opened, with what to do", () =>
        Effect.scoped(
          Effect.gen(function* () {
            const browser = yield* launchBrowser
            const { context } = yield* newContext(browser, { javaScriptEnabled: false })
            const page = yield* Effect.promise(() => context.newPage())
            for (const query of ["", "?token=", `?token=${"x".repeat(201)}`]) {
              const answer = yield* open(page, `${origin}/verify-email${query}`)
              expect(answer.status(), query).toBe(400)
              yield* expectPersonalPage(answer)
              expect(yield* heading(page)).toBe("This link no longer works")
              expect(yield* mainText(page)).toContain("ask for the change again")
            }
            // A token that was never issued is found out when pressed, and nothing is verified.
            yield* open(page, `${origin}/verify-email?token=never-issued`)
            const pressed = yield* press(page, "Verify my email address")
            expect(pressed.status()).toBe(400)
            expect(yield* heading(page)).toBe("This link no longer works")
          })
        )
      )
    })
  }
)

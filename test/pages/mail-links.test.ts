// The links the service mails, followed in headless Chromium with JavaScript off as a person would:
// the verification link (a page with one button; only the press verifies, so a mail scanner's GET
// uses nothing up) and the invitation link (signed out → sign-in → back → accept or reject), with
// the unhappy paths said on the page. The server listens on a port chosen first, so that its
// PUBLIC_ORIGIN (and so every mailed link) is the address the browser uses; the links are read from
// the outbox's log lines, as a person running the service locally reads them.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { BrowserContext, Page, Response } from "playwright-core"
import { sessionFormToken } from "../../src/foundation/Pages/FormToken.js"
import { escapeHtml } from "../../src/http/pages/Html.js"
import { postgresUnavailable } from "../foundation/support/Backends.js"
import {
  COOKIE,
  logLines,
  postgresFoundationServer,
  sqlQuery
} from "../foundation/support/FoundationClient.js"
import {
  browserUnavailable,
  newContext,
  offLoopback,
  TestBrowser,
  TestBrowserLive
} from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"

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

/** Follows the verification link through the API, as a script would, so the account is verified. */
const verifiedByApi = (person: Person) =>
  Effect.gen(function* () {
    const link = yield* mailedLink("verify-email", person.email)
    const token = new URL(link).searchParams.get("token") ?? ""
    expect((yield* api("/auth/verify-email", { body: { token } })).status).toBe(200)
  })

/** An owner (verified) with an organization who invites a new, verified person as `role`. */
const invitedPerson = (role: "member" | "admin" = "member", options: { readonly verified?: boolean } = {}) =>
  Effect.gen(function* () {
    const owner = yield* signUp("owner")
    const organization = yield* api("/organizations", {
      cookie: owner.cookie,
      body: { name: `Mail Org ${counter}` }
    })
    expect(organization.status).toBe(200)
    const organizationId = String(organization.json.id)
    const invitee = yield* signUp("invitee")
    if (options.verified !== false) yield* verifiedByApi(invitee)
    const invitation = yield* api(`/organizations/${organizationId}/invitations`, {
      cookie: owner.cookie,
      body: { email: invitee.email, role }
    })
    expect(invitation.status).toBe(200)
    const link = yield* mailedLink("invitation", invitee.email)
    expect(link).toBe(
      `${origin}/accept-invitation?invitation=${encodeURIComponent(String(invitation.json.id))}`
    )
    return {
      owner,
      invitee,
      organizationId,
      organizationName: String(organization.json.name),
      invitationId: String(invitation.json.id),
      link
    }
  })

/** The invitation's status as its organization lists it. */
const statusOf = (owner: Person, organizationId: string, invitationId: string) =>
  Effect.map(api(`/organizations/${organizationId}/invitations`, { cookie: owner.cookie }), (answer) => {
    const items = answer.json.items as ReadonlyArray<{ id: string; status: string }>
    return items.find((item) => item.id === invitationId)?.status
  })

const organizationIdsOf = (person: Person) =>
  Effect.map(api("/organizations", { cookie: person.cookie }), (answer) => {
    const items = (Array.isArray(answer.json) ? answer.json : answer.json.items) as ReadonlyArray<{
      id: string
    }>
    return items.map((item) => item.id)
  })

/** Opens `link` signed out, signs in on the sign-in page, and lands back on `link`. */
const signInThrough = (page: Page, link: string, person: Person) =>
  Effect.gen(function* () {
    yield* open(page, link)
    expect(new URL(page.url()).pathname).toBe("/sign-in")
    yield* Effect.promise(() => page.getByLabel("Email").fill(person.email))
    yield* Effect.promise(() => page.getByLabel("Password").fill(PASSWORD))
    const landed = yield* press(page, "Sign in")
    expect(page.url()).toBe(link)
    return landed
  })

/** A browser context of its own (its own cookies), without JavaScript: the pages must work as plain forms. */
const freshPage = Effect.gen(function* () {
  const browser = yield* TestBrowser
  const recording = yield* newContext(browser, { javaScriptEnabled: false })
  const page = yield* Effect.promise(() => recording.context.newPage())
  return { ...recording, page }
})

const sessionTokenIn = (context: BrowserContext) =>
  Effect.map(
    Effect.promise(() => context.cookies(origin)),
    (cookies) => cookies.find((cookie) => cookie.name === COOKIE)?.value ?? ""
  )

/** Posts a decision from this service's origin with the context's cookies (as a tampered page would). */
const postDecision = (context: BrowserContext, fields: Record<string, string>) =>
  Effect.promise(async () => {
    const response = await context.request.post(`${origin}/accept-invitation`, {
      form: fields,
      headers: { origin },
      maxRedirects: 0
    })
    return { status: response.status(), text: await response.text() }
  })

/** Another site on loopback, serving whatever page the test puts there. */
const otherSite = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ server: Http.Server; url: string; page: { html: string } }>((resolve) => {
        const page = { html: "" }
        const server = Http.createServer((_, response) => {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
          response.end(page.html)
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, page })
        )
      })
  ),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
    )
)

const buttonCount = (page: Page) => Effect.promise(() => page.getByRole("button").count())

describeNeeding(browserUnavailable, postgresUnavailable)("the links the service mails, in a browser", () => {
  layer(
    Layer.merge(postgresFoundationServer({ PORT: String(port), PUBLIC_ORIGIN: origin }), TestBrowserLive),
    {
      timeout: 120_000,
      excludeTestServices: true
    }
  )((it) => {
    it.effect(
      "the verification link shows a button, verifies only when pressed and says so; used again it says it no longer works",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const person = yield* signUp("verifier")
            const link = yield* mailedLink("verify-email", person.email)
            expect(link.startsWith(`${origin}/verify-email?token=`)).toBe(true)
            const browser = yield* TestBrowser
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
          const browser = yield* TestBrowser
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

    it.effect(
      "an invitee opens the link signed out, signs in, comes back to the invitation, accepts and is a member",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const invited = yield* invitedPerson("admin")
            const { page, requests } = yield* freshPage
            const shown = yield* signInThrough(page, invited.link, invited.invitee)
            expect(shown.status()).toBe(200)
            yield* expectPersonalPage(shown)
            expect(yield* heading(page)).toBe(`Invitation to join ${invited.organizationName}`)
            const facts = yield* Effect.promise(async () => (await page.locator("dl").textContent()) ?? "")
            expect(facts).toContain(invited.organizationName)
            expect(facts).toContain("admin")
            expect(facts).toContain(invited.invitee.email)
            expect(facts).toContain("pending")
            expect(facts).toMatch(/Expires\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
            expect(yield* organizationIdsOf(invited.invitee)).not.toContain(invited.organizationId)

            const answered = yield* press(page, `Accept and join ${invited.organizationName}`)
            expect(answered.status()).toBe(200)
            yield* expectPersonalPage(answered)
            expect(page.url()).toBe(invited.link)
            expect(
              yield* Effect.promise(async () => (await page.getByRole("status").textContent()) ?? "")
            ).toBe(`You accepted this invitation and joined ${invited.organizationName}.`)
            expect(yield* buttonCount(page)).toBe(0)
            expect(yield* organizationIdsOf(invited.invitee)).toContain(invited.organizationId)
            expect(yield* statusOf(invited.owner, invited.organizationId, invited.invitationId)).toBe(
              "accepted"
            )
            expect(offLoopback(requests)).toEqual([])
          })
        ),
      60_000
    )

    it.effect("an invitee who rejects stays outside the organization and the page says so", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const invited = yield* invitedPerson()
          const { page } = yield* freshPage
          yield* signInThrough(page, invited.link, invited.invitee)
          const answered = yield* press(page, "Reject")
          expect(answered.status()).toBe(200)
          expect(
            yield* Effect.promise(async () => (await page.getByRole("status").textContent()) ?? "")
          ).toContain("You declined this invitation")
          expect(yield* statusOf(invited.owner, invited.organizationId, invited.invitationId)).toBe(
            "rejected"
          )
          expect(yield* organizationIdsOf(invited.invitee)).not.toContain(invited.organizationId)
        })
      )
    )

    it.effect(
      "someone signed in with another address sees that the invitation is not theirs, learns nothing of it and cannot accept",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const invited = yield* invitedPerson()
            const stranger = yield* signUp("stranger")
            yield* verifiedByApi(stranger)
            const { page, context } = yield* freshPage
            const shown = yield* signInThrough(page, invited.link, stranger)
            expect(shown.status()).toBe(403)
            yield* expectPersonalPage(shown)
            expect(yield* heading(page)).toBe("This invitation is for someone else")
            const text = yield* mainText(page)
            expect(text).toContain(stranger.email)
            expect(text).not.toContain(invited.organizationName)
            expect(text).not.toContain(invited.invitee.email)
            expect(yield* buttonCount(page)).toBe(0)

            // Even a well-formed decision of their own session (the right Origin, their form token) is refused.
            const token = sessionFormToken(
              yield* sessionTokenIn(context),
              "invitation-decision",
              invited.invitationId
            )
            const posted = yield* postDecision(context, {
              invitation: invited.invitationId,
              form_token: token,
              decision: "accept"
            })
            expect(posted.status).toBe(403)
            expect(posted.text).toContain("This invitation is for someone else")
            expect(yield* statusOf(invited.owner, invited.organizationId, invited.invitationId)).toBe(
              "pending"
            )
            expect(yield* organizationIdsOf(stranger)).not.toContain(invited.organizationId)
          })
        ),
      60_000
    )

    it.effect(
      "an invitee whose address is not verified yet is told to verify it first, and cannot answer",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const invited = yield* invitedPerson("member", { verified: false })
            const { page } = yield* freshPage
            yield* signInThrough(page, invited.link, invited.invitee)
            expect(yield* heading(page)).toBe(`Invitation to join ${invited.organizationName}`)
            expect(
              yield* Effect.promise(async () => (await page.getByRole("alert").textContent()) ?? "")
            ).toContain("Verify your email address before answering")
            expect(yield* buttonCount(page)).toBe(0)
          })
        )
    )

    it.effect(
      "a revoked invitation and an expired one say so, and a decision sent after expiry is refused (409)",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const revoked = yield* invitedPerson()
            const withdrawn = yield* api(
              `/organizations/${revoked.organizationId}/invitations/${revoked.invitationId}`,
              {
                cookie: revoked.owner.cookie,
                method: "DELETE"
              }
            )
            expect(withdrawn.status).toBe(200)
            const first = yield* freshPage
            yield* signInThrough(first.page, revoked.link, revoked.invitee)
            expect(yield* mainText(first.page)).toContain(
              `${revoked.organizationName} withdrew this invitation`
            )
            expect(yield* buttonCount(first.page)).toBe(0)

            // The invitee has the page open while the invitation runs out, then presses Accept.
            const expiring = yield* invitedPerson()
            const second = yield* freshPage
            yield* signInThrough(second.page, expiring.link, expiring.invitee)
            yield* sqlQuery("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [
              expiring.invitationId
            ])
            const late = yield* press(second.page, `Accept and join ${expiring.organizationName}`)
            expect(late.status()).toBe(409)
            yield* expectPersonalPage(late)
            const text = yield* mainText(second.page)
            expect(text).toContain("This invitation is expired")
            expect(text).toMatch(/This invitation expired on \d{4}-\d{2}-\d{2}/)
            expect(yield* buttonCount(second.page)).toBe(0)
            expect(yield* organizationIdsOf(expiring.invitee)).not.toContain(expiring.organizationId)
          })
        ),
      60_000
    )

    it.effect(
      "a decision posted from another site, or with a form token that is not the session's, is refused and decides nothing",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const invited = yield* invitedPerson()
            const { page, context } = yield* freshPage
            yield* signInThrough(page, invited.link, invited.invitee)
            const fields = yield* Effect.promise(() =>
              page
                .locator('form[action="/accept-invitation"] input[type=hidden]')
                .evaluateAll((inputs) =>
                  inputs.map(
                    (input) => [input.getAttribute("name") ?? "", input.getAttribute("value") ?? ""] as const
                  )
                )
            )
            expect(fields.map(([name]) => name)).toEqual(["invitation", "form_token"])

            // Another site copies the form, token included, and gets the invitee to press its button.
            const site = yield* otherSite
            const hidden = fields
              .map(
                ([name, value]) =>
                  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`
              )
              .join("")
            site.page.html = `<!doctype html><title>Prize</title><form method="post" action="${origin}/accept-invitation">${hidden}<button name="decision" value="accept">Claim your prize</button></form>`
            for (const siteUrl of [site.url, site.url.replace("127.0.0.1", "localhost")]) {
              yield* open(page, `${siteUrl}/prize`)
              const answer = yield* press(page, "Claim your prize")
              expect(answer.status(), siteUrl).toBe(403)
              yield* expectPersonalPage(answer)
              expect(yield* heading(page)).toBe("Decision refused")
            }

            // From this service's origin, but with a token of another invitation or none at all.
            const tokens = [
              "",
              "x".repeat(43),
              sessionFormToken(yield* sessionTokenIn(context), "invitation-decision", "inv_other")
            ]
            for (const formToken of tokens) {
              const posted = yield* postDecision(context, {
                invitation: invited.invitationId,
                form_token: formToken,
                decision: "accept"
              })
              expect(posted.status, formToken).toBe(403)
              expect(posted.text).toContain("does not belong to your session")
            }
            expect(yield* statusOf(invited.owner, invited.organizationId, invited.invitationId)).toBe(
              "pending"
            )
            expect(yield* organizationIdsOf(invited.invitee)).not.toContain(invited.organizationId)
          })
        ),
      60_000
    )

    it.effect(
      "an invitation link that names no invitation says so, and a signed-out decision asks to sign in again",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const { page, context } = yield* freshPage
            for (const query of ["", "?invitation=", `?invitation=${"x".repeat(161)}`]) {
              const answer = yield* open(page, `${origin}/accept-invitation${query}`)
              expect(answer.status(), query).toBe(404)
              yield* expectPersonalPage(answer)
              expect(yield* heading(page)).toBe("Invitation not found")
            }
            // A well-formed id is looked up only for a signed-in person.
            yield* open(page, `${origin}/accept-invitation?invitation=inv_unknown`)
            expect(new URL(page.url()).pathname).toBe("/sign-in")
            const person = yield* signUp("nobody")
            yield* signInThrough(page, `${origin}/accept-invitation?invitation=inv_unknown`, person)
            expect(yield* heading(page)).toBe("Invitation not found")

            yield* Effect.promise(() => context.clearCookies())
            const posted = yield* postDecision(context, {
              invitation: "inv_unknown",
              form_token: "x",
              decision: "accept"
            })
            expect(posted.status).toBe(401)
            expect(posted.text).toContain("Sign in again")
            const other = yield* Effect.promise(() =>
              fetch(`${origin}/accept-invitation?invitation=inv_unknown`, { method: "PUT" })
            )
            expect(other.status).toBe(405)
            expect(other.headers.get("allow")).toBe("GET, HEAD, POST")
          })
        )
    )

    it.effect("a verification link without a usable token says so when opened, with what to do", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const browser = yield* TestBrowser
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
})

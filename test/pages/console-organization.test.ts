// An organization's page (extensions §9) as people use it in headless Chromium, by labels and roles:
// an owner saves the settings, and a form left open while someone else saved is refused as changed by
// someone else, showing the current values, with nothing overwritten; an API token is shown once
// (selectable, with a copy button when script runs) and works until revoked; an invitation is sent
// and revoked; the last owner cannot leave, said in words. A member sees what members may do and no
// more, is refused what owners do even when posting by hand, and leaves. The JSON API sees each
// change. Each setup: PGlite with JavaScript off, PostgreSQL with it on (axe and the phone width then).
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Page } from "playwright-core"
import { postgresUnavailable } from "../foundation/support/Backends.js"
import { postgresFoundationServer, sqlQuery } from "../foundation/support/FoundationClient.js"
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
  heading,
  mailedLink,
  mainText,
  open,
  personBrowser,
  press,
  setupName,
  signInOnPage,
  startAuthorization,
  uniqueEmail,
  verifiedAccount
} from "./support/Console.js"

const PASSWORD = "an organization page passphrase"

interface Organization {
  readonly id: string
  readonly name: string
  readonly version: number
  readonly website: string | null
}

/** Posts one of the page's forms by hand (as a tampering person could), with the page's own token. */
const postByHand = (page: Page, origin: string, path: string, form: Record<string, string>) =>
  Effect.promise(async () => {
    const token = await page.locator("input[name=form_token]").first().getAttribute("value")
    const response = await page.request.post(`${origin}${path}`, {
      form: { form_token: token ?? "", ...form },
      headers: { origin },
      maxRedirects: 0
    })
    return { status: response.status(), text: await response.text() }
  })

// One Chromium for the file; each setup starts its own server.
const browser = fileBrowser()

for (const setup of consoleSetups) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const js = setup.javaScript
  describeNeeding(browserUnavailable, setup.backend.missing)(
    `an organization's page (${setupName(setup)})`,
    () => {
      browser.layer(consoleServer(setup.backend, port), { timeout: 120_000 })((it) => {
        it.effect(
          "an owner saves the settings, a stale form is refused with the current values, a token is shown once, an invitation is sent and revoked, a connected app is ended",
          () =>
            Effect.scoped(
              Effect.gen(function* () {
                const owner = yield* verifiedAccount(origin, "ada", PASSWORD)
                const created = yield* api(origin, "/organizations", {
                  cookie: owner.cookie,
                  body: { name: "Analytical Engines" }
                })
                const organization = created.json as Organization
                const path = `/organizations/${organization.id}`
                const { page } = yield* personBrowser(js, { clipboard: js })
                yield* signInOnPage(page, origin, owner.email, PASSWORD)
                // The organizations page links to it.
                yield* Effect.promise(() => page.getByRole("link", { name: "Analytical Engines" }).click())
                yield* Effect.promise(() => page.waitForURL((url) => url.pathname === path))
                const shown = yield* open(page, `${origin}${path}`)
                yield* expectPersonal(shown)
                expect(yield* heading(page)).toBe("Analytical Engines")
                yield* checkPage(page, "organization", js)

                // A website that is not a web address is refused beside its field, what was typed kept.
                yield* fill(page, "Website (optional)", "javascript:alert(1)")
                expect((yield* press(page, "Save settings")).status()).toBe(400)
                expect(yield* mainText(page)).toContain("Enter a web address starting with https://")
                expect(yield* Effect.promise(() => page.getByLabel("Website (optional)").inputValue())).toBe(
                  "javascript:alert(1)"
                )
                yield* fill(page, "Website (optional)", "https://engines.example")
                yield* fill(page, "Company name (optional)", "Babbage & Co")
                yield* press(page, "Save settings")
                expect(yield* mainText(page)).toContain("The settings are saved.")
                const saved = (yield* api(origin, path, { cookie: owner.cookie })).json as Organization
                expect(saved).toMatchObject({
                  website: "https://engines.example",
                  companyName: "Babbage & Co"
                })

                // Someone else saves while this form is open: this form is refused, nothing overwritten.
                const other = yield* api(origin, path, {
                  cookie: owner.cookie,
                  method: "PATCH",
                  body: { version: saved.version, name: "Difference Engines" }
                })
                expect(other.status).toBe(200)
                yield* fill(page, "Name", "Analytical Engines Ltd")
                const stale = yield* press(page, "Save settings")
                expect(stale.status()).toBe(409)
                expect(yield* mainText(page)).toContain("Changed by someone else.")
                expect(
                  yield* Effect.promise(() => page.getByLabel("Name", { exact: true }).inputValue())
                ).toBe("Difference Engines")
                expect(yield* mainText(page)).toContain("Analytical Engines Ltd")
                yield* checkPage(page, "organization stale settings", js)
                expect((yield* api(origin, path, { cookie: owner.cookie })).json).toMatchObject({
                  name: "Difference Engines",
                  version: saved.version + 1
                })
                // The refused form now carries the current version: saved again, it goes through.
                yield* fill(page, "Name", "Analytical Engines Ltd")
                yield* press(page, "Save settings")
                expect(yield* mainText(page)).toContain("The settings are saved.")
                expect((yield* api(origin, path, { cookie: owner.cookie })).json).toMatchObject({
                  name: "Analytical Engines Ltd"
                })

                // An API token: refused without a scope, then created and shown once.
                yield* fill(page, "Token name", "deploy bot")
                yield* Effect.promise(() =>
                  page.getByRole("checkbox", { name: "organizations:read" }).uncheck()
                )
                expect((yield* press(page, "Create token")).status()).toBe(400)
                expect(yield* mainText(page)).toContain("Choose at least one thing the token may do")
                expect(yield* Effect.promise(() => page.getByLabel("Token name").inputValue())).toBe(
                  "deploy bot"
                )
                yield* Effect.promise(() =>
                  page.getByRole("checkbox", { name: "organizations:read" }).check()
                )
                yield* Effect.promise(() =>
                  page.getByRole("checkbox", { name: "organizations:write" }).check()
                )
                const made = yield* press(page, "Create token")
                expect(made.status()).toBe(200)
                yield* expectPersonal(made)
                const secret = page.locator("#new-token")
                const token = (yield* Effect.promise(() => secret.textContent()))?.trim() ?? ""
                expect(token.length).toBeGreaterThan(30)
                expect(
                  yield* Effect.promise(() =>
                    page.evaluate("getComputedStyle(document.getElementById('new-token')).userSelect")
                  )
                ).toBe("all")
                const copy = page.getByRole("button", { name: "Copy token" })
                if (js) {
                  yield* checkPage(page, "organization new token", js)
                  yield* Effect.promise(() => copy.click())
                  // The clipboard write is asynchronous: the status is set when it settles.
                  // (Waited for by a locator: the page's policy forbids the eval waitForFunction needs.)
                  yield* Effect.promise(() =>
                    page.locator("#new-token-status").filter({ hasText: /\S/ }).waitFor({ state: "attached" })
                  )
                  const said = yield* Effect.promise(() => page.locator("#new-token-status").textContent())
                  expect(said).toMatch(/^(Copied\.|Selected: )/)
                  if (said === "Copied.") {
                    expect(yield* Effect.promise(() => page.evaluate("navigator.clipboard.readText()"))).toBe(
                      token
                    )
                  }
                } else {
                  // Without script the button stays hidden: the text is there to select.
                  expect(yield* Effect.promise(() => copy.count())).toBe(0)
                }
                expect(yield* bearerStatus(origin, path, token)).toBe(200)
                // Never shown again: not on the page read again, not in the API's list.
                yield* open(page, `${origin}${path}`)
                const again = yield* Effect.promise(() => page.content())
                expect(again).not.toContain(token)
                expect(again).toContain(token.slice(0, 8))
                const listed = yield* api(origin, `${path}/tokens`, { cookie: owner.cookie })
                expect(JSON.stringify(listed.json)).not.toContain(token)
                yield* press(page, "Revoke the token deploy bot")
                expect(yield* mainText(page)).toContain("The API token is revoked")
                expect(yield* bearerStatus(origin, path, token)).toBe(401)

                // An invitation: sent (its link mailed), listed, revoked.
                const invitee = uniqueEmail("grace")
                yield* fill(page, "Email address", invitee)
                yield* Effect.promise(() => page.getByRole("radio", { name: "Admin" }).check())
                yield* press(page, "Send invitation")
                expect(yield* mainText(page)).toContain("The invitation is sent.")
                yield* mailedLink("invitation", invitee)
                yield* fill(page, "Email address", invitee)
                expect((yield* press(page, "Send invitation")).status()).toBe(409)
                expect(yield* mainText(page)).toContain("already has a pending invitation")
                const row = page.getByRole("row").filter({ hasText: invitee })
                expect(yield* Effect.promise(() => row.textContent())).toContain("Pending")
                yield* press(page, `Revoke the invitation of ${invitee}`)
                expect(yield* mainText(page)).toContain("The invitation is revoked")
                expect(yield* Effect.promise(() => row.textContent())).toContain("Revoked")

                // An app a member connected is listed with its person, and an owner disconnects it.
                const app = yield* appServer
                const authorization = yield* startAuthorization(origin, app, "Engine notebook")
                yield* allowInBrowser(page, authorization, /Analytical Engines Ltd/)
                const appTokens = yield* exchangeCode(origin, app, authorization)
                expect(yield* bearerStatus(origin, path, appTokens.access_token)).toBe(200)
                yield* open(page, `${origin}${path}#connections`)
                const connection = page.getByRole("row").filter({ hasText: "Engine notebook" })
                expect(yield* Effect.promise(() => connection.textContent())).toContain("ada")
                yield* press(page, "Disconnect Engine notebook of ada")
                expect(yield* mainText(page)).toContain("The app is disconnected")
                expect(yield* mainText(page)).toContain("No app is connected to this organization.")
                expect(yield* bearerStatus(origin, path, appTokens.access_token)).toBe(401)

                // The only owner is told why they cannot leave, and a leave posted by hand is refused.
                expect(yield* mainText(page)).toContain("You are its only owner, so you cannot leave yet")
                expect(
                  yield* Effect.promise(() =>
                    page.getByRole("button", { name: "Leave organization" }).count()
                  )
                ).toBe(0)
                const leave = yield* postByHand(page, origin, path, { action: "leave" })
                expect(leave.status).toBe(400)
                expect(leave.text).toContain("the last owner can be neither given another role nor removed")
                expect((yield* api(origin, `${path}/members`, { cookie: owner.cookie })).json).toMatchObject({
                  items: [{ email: owner.email, role: "owner" }]
                })
              })
            ),
          180_000
        )

        it.effect(
          "a member sees what members may do, is refused an owner's action posted by hand, and leaves; an owner changes a role",
          () =>
            Effect.scoped(
              Effect.gen(function* () {
                const owner = yield* verifiedAccount(origin, "ada", PASSWORD)
                const member = yield* verifiedAccount(origin, "charles", PASSWORD)
                const organization = (yield* api(origin, "/organizations", {
                  cookie: owner.cookie,
                  body: { name: "Lovelace Lab" }
                })).json as Organization
                const path = `/organizations/${organization.id}`
                const invitation = (yield* api(origin, `${path}/invitations`, {
                  cookie: owner.cookie,
                  body: { email: member.email, role: "member" }
                })).json as { id: string }
                expect(
                  (yield* api(origin, `/invitations/${invitation.id}/accept`, {
                    cookie: member.cookie,
                    body: {}
                  })).status
                ).toBe(200)

                const { page } = yield* personBrowser(js)
                yield* signInOnPage(page, origin, member.email, PASSWORD)
                yield* open(page, `${origin}${path}`)
                expect(yield* heading(page)).toBe("Lovelace Lab")
                yield* checkPage(page, "organization as member", js)
                const text = yield* mainText(page)
                expect(text).toContain("Owners and admins change these settings.")
                expect(text).toContain("Owners and admins invite people.")
                const tokensHeading = page.getByRole("heading", { name: "API tokens" })
                expect(yield* Effect.promise(() => tokensHeading.count())).toBe(0)
                const buttons = yield* Effect.promise(() => page.getByRole("button").allTextContents())
                expect(buttons).toEqual(["Leave organization"])

                // Posted by hand anyway: refused by the same rules as the API, nothing changed.
                const members = (yield* api(origin, `${path}/members`, { cookie: owner.cookie })).json as {
                  items: Array<{ id: string; email: string; role: string }>
                }
                const ownerMember = members.items.find((item) => item.email === owner.email)
                const promote = yield* postByHand(page, origin, path, {
                  action: "role",
                  member: ownerMember?.id ?? "",
                  role: "member"
                })
                expect(promote.status).toBe(403)
                expect(promote.text).toContain("Members cannot change roles.")
                const settings = yield* postByHand(page, origin, path, {
                  action: "settings",
                  version: String(organization.version),
                  name: "Taken over"
                })
                expect(settings.status).toBe(403)
                const token = yield* postByHand(page, origin, path, {
                  action: "create-token",
                  name: "mine",
                  "scopes.organizations:read": "organizations:read",
                  expiresInDays: "30"
                })
                expect(token.status).toBe(403)
                expect((yield* api(origin, path, { cookie: owner.cookie })).json).toMatchObject({
                  name: "Lovelace Lab"
                })
                // A form from another site is refused before anything is read.
                const foreign = yield* Effect.promise(async () => {
                  const response = await page.request.post(`${origin}${path}`, {
                    form: { action: "leave" },
                    headers: { origin: "https://elsewhere.example" },
                    maxRedirects: 0
                  })
                  return response.status()
                })
                expect(foreign).toBe(403)

                // The owner makes the member an admin on the page; then the member's page offers more.
                const ownerBrowser = yield* personBrowser(js)
                yield* signInOnPage(ownerBrowser.page, origin, owner.email, PASSWORD)
                yield* open(ownerBrowser.page, `${origin}${path}#members`)
                yield* Effect.promise(() =>
                  ownerBrowser.page.getByLabel("New role for charles").selectOption({ label: "Admin" })
                )
                yield* press(ownerBrowser.page, "Change role of charles")
                expect(yield* mainText(ownerBrowser.page)).toContain("The role is changed.")
                yield* checkPage(ownerBrowser.page, "organization with two members", js)
                const after = (yield* api(origin, `${path}/members`, { cookie: owner.cookie })).json as {
                  items: Array<{ email: string; role: string }>
                }
                expect(after.items.find((item) => item.email === member.email)?.role).toBe("admin")
                yield* open(page, `${origin}${path}`)
                expect(yield* Effect.promise(() => tokensHeading.count())).toBe(1)
                // An admin is offered nothing over an owner.
                expect(yield* Effect.promise(() => page.getByRole("button", { name: /ada$/ }).count())).toBe(
                  0
                )

                // The member leaves: back to their organizations, and the API agrees.
                yield* press(page, "Leave organization")
                expect(new URL(page.url()).pathname).toBe("/organizations")
                expect(yield* mainText(page)).toContain("You left the organization.")
                expect((yield* api(origin, path, { cookie: member.cookie })).status).toBe(404)
                const gone = yield* open(page, `${origin}${path}`)
                expect(gone.status()).toBe(404)
              })
            ),
          180_000
        )
      })
    }
  )
}

// The notebook's notes are saved by agents (catalog-extensions §12), which this server does not run:
// they are written straight into PostgreSQL, as an agent's save would leave them.
const notebookPort = await freePort()
const notebookOrigin = `http://127.0.0.1:${notebookPort}`
describeNeeding(browserUnavailable, postgresUnavailable)("an organization's notebook (PostgreSQL)", () => {
  browser.layer(postgresFoundationServer({ PORT: String(notebookPort), PUBLIC_ORIGIN: notebookOrigin }), {
    timeout: 120_000
  })((it) => {
    it.effect(
      "a member deletes their own note and is refused another's; names and text are shown as text",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const origin = notebookOrigin
            const owner = yield* verifiedAccount(origin, "ada", PASSWORD)
            const member = yield* verifiedAccount(origin, "charles", PASSWORD)
            const organization = (yield* api(origin, "/organizations", {
              cookie: owner.cookie,
              body: { name: "Lovelace Lab" }
            })).json as Organization
            const path = `/organizations/${organization.id}`
            const invitation = (yield* api(origin, `${path}/invitations`, {
              cookie: owner.cookie,
              body: { email: member.email, role: "member" }
            })).json as { id: string }
            yield* api(origin, `/invitations/${invitation.id}/accept`, { cookie: member.cookie, body: {} })
            const { page } = yield* personBrowser(true)
            yield* signInOnPage(page, origin, member.email, PASSWORD)
            // The notebook: a member deletes their own note, never another's (posted by hand: 403).
            const ownerId = (
              (yield* api(origin, "/profile", { cookie: owner.cookie })).json as { id: string }
            ).id
            const memberId = (
              (yield* api(origin, "/profile", { cookie: member.cookie })).json as { id: string }
            ).id
            for (const [id, userId, text] of [
              ["note_owner_1", ownerId, "The owner's <b>note</b>"],
              ["note_member_1", memberId, "The member's note"]
            ] as const) {
              yield* sqlQuery(
                "INSERT INTO notes (id, organization_id, user_id, client_id, episode_slug, paragraph_index, text) VALUES ($1, $2, $3, 'https://agent.example/client', '7', 3, $4)",
                [id, organization.id, userId, text]
              )
            }
            yield* open(page, `${origin}${path}#notebook`)
            expect(yield* mainText(page)).toContain("The owner's <b>note</b>")
            expect(yield* mainText(page)).toContain("Episode 7, paragraph 3")
            const deletes = page.getByRole("button", { name: /^Delete the note/ })
            expect(yield* Effect.promise(() => deletes.count())).toBe(1)
            const foreignNote = yield* postByHand(page, origin, path, {
              action: "delete-note",
              note: "note_owner_1"
            })
            expect(foreignNote.status).toBe(403)
            expect(foreignNote.text).toContain(
              "Only owners, admins and the note&#39;s author may delete a note."
            )
            yield* press(page, "Delete the note on episode 7")
            expect(yield* mainText(page)).toContain("The note is deleted.")
            expect(yield* mainText(page)).not.toContain("The member's note")
            expect(yield* mainText(page)).toContain("The owner's <b>note</b>")
            yield* checkPage(page, "organization notebook", true)
          })
        ),
      120_000
    )
  })
})

// Names on pages (extensions §9): a person's, an organization's or a client's name is escaped, and
// its Unicode bidi controls and control characters are neutralised, so a right-to-left override
// cannot make a client (or anyone) look like something else. Unit rules of `neutralText`, then the
// consent and invitation pages with such names, on PGlite and PostgreSQL.
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { displayName, neutralText } from "../../src/http/pages/Html.js"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import {
  type Account,
  COOKIE,
  call,
  createOrganization,
  foundationServer,
  invite,
  sessionFrom,
  uniqueEmail,
  verifyEmail
} from "./support/FoundationClient.js"
import { authorizationUrl, consentPageFor, oauthWorld, registerPublic } from "./support/OAuthFlow.js"

/** What may never reach a page from a name: bidi controls, and control characters but tab, LF and CR. */
const disguising =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
  /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/u

const CLIENT_NAME = "Safe App\u202Eexe.gpj\u0007\n\u2066Bank\u2069"
const CLIENT_SHOWN = "Safe Appexe.gpj\ufffd Bank"
const ORGANIZATION_NAME = "Acme\u200F\u202B Corp\u0008"
const ORGANIZATION_SHOWN = "Acme Corp\ufffd"
const PERSON_NAME = "Mallory\u202D\u061C Admin\u0085"
const PERSON_SHOWN = "Mallory Admin "

describe("neutralText", () => {
  it("removes every bidi control, spaces out line breaks and shows other controls as U+FFFD", () => {
    expect(
      neutralText("a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j\u200Ek\u200Fl\u061Cm")
    ).toBe("abcdefghijklm")
    expect(neutralText("one\ttwo\nthree\r\nfour\u2028five")).toBe("one two three  four five")
    expect(neutralText("bell\u0007esc\u001bdel\u007fc1\u009b")).toBe("bell\ufffdesc\ufffddel\ufffdc1\ufffd")
    expect(neutralText("Zoë 山田 مرحبا")).toBe("Zoë 山田 مرحبا")
  })

  it("displayName escapes and isolates", () => {
    expect(displayName('<b>"x"</b>\u202E').text).toBe("<bdi>&lt;b&gt;&quot;x&quot;&lt;/b&gt;</bdi>")
  })
})

/** A new account with `name`, its email verified. */
const personNamed = (name: string) =>
  Effect.gen(function* () {
    const email = uniqueEmail("names")
    const password = "correct horse battery"
    const response = yield* call("/auth/sign-up", { body: { email, password, name } })
    expect(response.status).toBe(200)
    const account: Account = {
      email,
      password,
      session: sessionFrom(response),
      userId: (response.json as { user: { id: string } }).user.id
    }
    yield* verifyEmail(account)
    return account
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`names on pages on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("the consent page shows the client, the person and the organization neutralised", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* personNamed(PERSON_NAME)
          yield* createOrganization(person, ORGANIZATION_NAME)
          const client = yield* registerPublic(world, CLIENT_NAME)
          // The name is stored as the client gave it: only its display is neutralised.
          expect(client.client_name).toBe(CLIENT_NAME)
          const start = yield* authorizationUrl(world, client.client_id)
          const page = (yield* consentPageFor(world, person, start.url)).text
          expect(page).not.toMatch(disguising)
          expect(page).toContain(`<title>Allow ${CLIENT_SHOWN}? · Podcast platform</title>`)
          expect(page).toContain(`<h1>Allow <bdi>${CLIENT_SHOWN}</bdi> to act for you?</h1>`)
          expect(page).toContain(`<bdi>${PERSON_SHOWN}</bdi>`)
          expect(page).toContain(`<bdi>${ORGANIZATION_SHOWN}</bdi> (owner)`)
        })
      )

      it.effect("the invitation page shows the organization neutralised", () =>
        Effect.gen(function* () {
          const owner = yield* personNamed("Owner")
          const organization = yield* createOrganization(owner, ORGANIZATION_NAME)
          const invitee = yield* personNamed(PERSON_NAME)
          const invitation = yield* invite(owner, organization.id, invitee.email)
          const page = yield* request(`/accept-invitation?invitation=${encodeURIComponent(invitation.id)}`, {
            headers: { cookie: `${COOKIE}=${invitee.session}` }
          })
          expect(page.status).toBe(200)
          expect(page.text).not.toMatch(disguising)
          expect(page.text).toContain(`<title>Invitation to ${ORGANIZATION_SHOWN} · Podcast platform</title>`)
          expect(page.text).toContain(`<h1>Invitation to join <bdi>${ORGANIZATION_SHOWN}</bdi></h1>`)
        })
      )
    })
  })
}

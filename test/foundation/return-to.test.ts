// `return_to` (extensions §9): only ever a path of this origin after every decoding and
// normalisation a browser applies, on every page that takes it. The rule is checked against the
// WHATWG URL parser (the one browsers resolve `Location` with) for generated values built from the
// pieces attacks are made of, and the sign-in page is driven with the forms an outside probe used.
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { safeReturnTo } from "../../src/foundation/Pages/ReturnTo.js"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import { COOKIE, foundationServer, PUBLIC_ORIGIN, signUp } from "./support/FoundationClient.js"

const ORIGIN = "https://service.example"

/** What the probe sent: each leaves the origin once a browser has normalised it. */
const attacks = [
  "/..//evil.example/x",
  "/%2e%2e//evil.example/x",
  "/%2E%2E//evil.example/x",
  "/./..//evil.example/x",
  "/a/../..//evil.example/x",
  "/.//evil.example/x",
  "/%2e//evil.example/x",
  "//evil.example/x",
  "/\\evil.example/x",
  "\\/evil.example/x",
  "/\t/evil.example/x",
  "/\n/evil.example/x",
  " //evil.example/x",
  "\u0000//evil.example/x",
  "https://evil.example/x",
  "https:evil.example/x",
  "javascript:alert(1)",
  "/%2f%2fevil.example/x",
  "/%252f%252fevil.example/x",
  "/%5c%5cevil.example/x",
  "/a/%2e%2e/%2e%2e//evil.example/x"
]

/** Where a browser goes when it is sent `location` by a page at `base`. */
const navigation = (location: string, base: string) => URL.parse(location, base)

/** A `return_to` answer is `/` or a path of ORIGIN that a browser resolves to exactly itself. */
const staysHome = (answer: string): boolean => {
  if (!answer.startsWith("/") || answer.startsWith("//") || answer.startsWith("/\\")) return false
  return [ORIGIN, `${ORIGIN}/sign-in?return_to=x`, `${ORIGIN}/a/b/c`].every((base) => {
    const target = navigation(answer, base)
    return target !== null && target.origin === ORIGIN && `${target.pathname}${target.search}` === answer
  })
}

/** Pieces that attacks on a path are made of, and plain ones. */
const piece = fc.constantFrom(
  "/",
  "//",
  "\\",
  ".",
  "..",
  "%2e",
  "%2E",
  "%2f",
  "%2F",
  "%5c",
  "%25",
  "%00",
  "\t",
  "\n",
  "\r",
  " ",
  "\u0000",
  "\u001f",
  "?",
  "#",
  "@",
  ":",
  "evil.example",
  "service.example",
  "https:",
  "http:",
  "a",
  "b-c",
  "%41",
  "é"
)
/** Mostly values that start as a path, as a `return_to` would. */
const tricky = fc
  .tuple(fc.constantFrom("/", "/a/", ""), fc.array(piece, { maxLength: 10 }))
  .map(([start, pieces]) => start + pieces.join(""))

const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/)
const plainPath = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 4 }),
    fc.option(fc.tuple(segment, segment), { nil: undefined })
  )
  .map(
    ([segments, query]) => `/${segments.join("/")}${query === undefined ? "" : `?${query[0]}=${query[1]}`}`
  )

describe("safeReturnTo", () => {
  it("refuses every form the probe found (and their relatives)", () => {
    for (const attack of attacks) expect(safeReturnTo(attack, ORIGIN), JSON.stringify(attack)).toBe("/")
  })

  it("keeps the paths of this service as they are", () => {
    for (const path of ["/", "/docs", "/oauth/authorize?client_id=x&state=1", "/organizations/org_1"]) {
      expect(safeReturnTo(path, ORIGIN)).toBe(path)
    }
    fc.assert(fc.property(plainPath, (path) => safeReturnTo(path, ORIGIN) === path))
  })

  it("whatever it accepts, a browser resolves to this origin and to exactly the path it gave", () => {
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: "binary", maxLength: 40 }), plainPath), (value) =>
        staysHome(safeReturnTo(value, ORIGIN))
      ),
      { numRuns: 20_000 }
    )
  })

  it("missing or unparsable is the home page", () => {
    expect(safeReturnTo(undefined, ORIGIN)).toBe("/")
    expect(safeReturnTo("http://[::1", ORIGIN)).toBe("/")
  })
})

for (const backend of backends) {
  describeNeeding(backend.missing)(`the sign-in page's return_to on ${backend.name}`, () => {
    // Every attack is also posted with the right password: the sign-in limit is not what is tested.
    const server = foundationServer(backend.database, { AUTH_RATE_LIMIT: "1000000" })
    layer(server, { timeout: 180_000, excludeTestServices: true })((it) => {
      it.effect(
        "a signed-in browser, the form and the page itself all stay on this origin",
        () =>
          Effect.gen(function* () {
            const account = yield* signUp("return-to")
            for (const attack of attacks.filter((value) => !value.includes("\u0000"))) {
              const query = `return_to=${encodeURIComponent(attack)}`
              // Already signed in: sent straight back, in one GET.
              const back = yield* request(`/sign-in?${query}`, {
                headers: { cookie: `${COOKIE}=${account.session}` }
              })
              expect(back.status, attack).toBe(303)
              expect(back.headers.get("location"), attack).toBe("/")
              // Not signed in: the page carries only a safe path in its form.
              const page = yield* request(`/sign-in?${query}`)
              expect(page.text, attack).toContain('<input type="hidden" name="return_to" value="/">')
              // The form's own post, as a browser (or an attacker's page) would send it.
              const posted = yield* request("/sign-in", {
                method: "POST",
                headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC_ORIGIN },
                body: new URLSearchParams({
                  email: account.email,
                  password: account.password,
                  return_to: attack
                }).toString()
              })
              expect(posted.status, attack).toBe(303)
              expect(posted.headers.get("location"), attack).toBe("/")
            }
          }),
        // A password check per attack: slow on a loaded machine.
        120_000
      )
    })
  })
}

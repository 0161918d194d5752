// Delegated access as a person meets it, in headless Chromium with JavaScript off: an app sends the
// browser to the authorization endpoint, the person signs in on the sign-in page, sees the consent
// page, picks an organization and allows; the app (oauth4webapi) exchanges the code and reads the
// organization. The session cookie (`__Secure-…`, Secure) works on http://127.0.0.1, which Chromium
// treats as a secure context. A decision posted from another site is refused and sends no code.
// The server listens on a port chosen first, so that its PUBLIC_ORIGIN is the address the browser uses.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as oauth from "oauth4webapi"
import { escapeHtml } from "../../src/http/pages/Html.js"
import { freshDataDir } from "../foundation/support/Backends.js"
import { foundationServer } from "../foundation/support/FoundationClient.js"
import { browserUnavailable, launchBrowser, newContext, offLoopback } from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const insecure = { [oauth.allowInsecureRequests]: true } as const

/** The app's side: a loopback server whose /callback records what the browser brings back. */
const appServer = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ server: Http.Server; url: string; callbacks: Array<URL>; attackPage: { html: string } }>(
        (resolve) => {
          const callbacks: Array<URL> = []
          const attackPage = { html: "" }
          const server = Http.createServer((request, response) => {
            const url = new URL(request.url ?? "/", "http://127.0.0.1")
            if (url.pathname === "/callback") {
              callbacks.push(
                new URL(request.url ?? "/", `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
              )
              response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
              response.end("<!doctype html><title>Signed in</title><h1>The app got its answer</h1>")
              return
            }
            // Another site's page that posts a decision to the service when its button is clicked.
            response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
            response.end(attackPage.html)
          })
          server.listen(0, "127.0.0.1", () => {
            const address = server.address() as AddressInfo
            resolve({ server, url: `http://127.0.0.1:${address.port}`, callbacks, attackPage })
          })
        }
      )
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

/** A JSON call to the foundation API as a script would make it (same origin for session writes). */
const api = (path: string, body: unknown, cookie?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...(cookie === undefined ? {} : { cookie }) },
      body: JSON.stringify(body)
    })
    return {
      json: (await response.json()) as Record<string, unknown>,
      cookie: response.headers.get("set-cookie")
    }
  })

const embedded = Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir }))

describeNeeding(browserUnavailable)("consent in a browser", () => {
  layer(foundationServer(embedded, { PORT: String(port), PUBLIC_ORIGIN: origin }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect(
      "a person signs in, picks an organization and allows; the app exchanges the code and reads it; the same decision posted from another site is refused",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const app = yield* appServer
            const email = `browser.${Date.now()}@example.com`
            const signedUp = yield* api("/auth/sign-up", { email, password: "browser password", name: "Bea" })
            const cookie = (signedUp.cookie ?? "").split(";")[0] ?? ""
            const organization = yield* api("/organizations", { name: "Browser Org" }, cookie)
            yield* api("/organizations", { name: "Another Org" }, cookie)

            const issuer = new URL(origin)
            const as = yield* Effect.promise(async () =>
              oauth.processDiscoveryResponse(
                issuer,
                await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure })
              )
            )
            const redirectUri = `${app.url}/callback`
            const client = yield* Effect.promise(async () =>
              oauth.processDynamicClientRegistrationResponse(
                await oauth.dynamicClientRegistrationRequest(
                  as,
                  {
                    client_name: "Browser app",
                    redirect_uris: [redirectUri],
                    token_endpoint_auth_method: "none"
                  },
                  insecure
                )
              )
            )
            const verifier = oauth.generateRandomCodeVerifier()
            const state = oauth.generateRandomState()
            const authorize = new URL(as.authorization_endpoint ?? "")
            authorize.search = new URLSearchParams({
              response_type: "code",
              client_id: client.client_id,
              redirect_uri: redirectUri,
              state,
              code_challenge: yield* Effect.promise(() => oauth.calculatePKCECodeChallenge(verifier)),
              code_challenge_method: "S256",
              scope: "organizations:read",
              resource: `${origin}/api/v1`
            }).toString()

            const browser = yield* launchBrowser
            // Without JavaScript: the pages must work as plain HTML forms.
            const { context, requests } = yield* newContext(browser, { javaScriptEnabled: false })
            const page = yield* Effect.promise(() => context.newPage())
            yield* Effect.promise(() => page.goto(authorize.href))
            expect(new URL(page.url()).pathname).toBe("/sign-in")
            expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe("Sign in")
            yield* Effect.promise(() => page.getByLabel("Email").fill(email))
            yield* Effect.promise(() => page.getByLabel("Password").fill("browser password"))
            yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())
            yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/oauth/authorize"))

            // The Secure session cookie was kept on http://127.0.0.1 (a secure context to Chromium).
            const cookies = yield* Effect.promise(() => context.cookies(origin))
            expect(cookies.find((c) => c.name === "__Secure-service.session_token")).toMatchObject({
              secure: true,
              httpOnly: true,
              sameSite: "Lax"
            })

            // The consent page names the app, the resource and the permission in words.
            expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe(
              "Allow Browser app to act for you?"
            )
            const text = (yield* Effect.promise(() => page.locator("main").textContent())) ?? ""
            expect(text).toContain("(unverified)")
            expect(text).toContain(`${origin}/api/v1`)
            expect(text).toContain("See the organization's details")
            expect(text).toContain("Bea")
            yield* Effect.promise(() => page.getByRole("radio", { name: /Browser Org/ }).check())
            yield* Effect.promise(() => page.getByRole("button", { name: "Allow" }).click())
            yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/callback"))
            expect(offLoopback(requests)).toEqual([])

            const [callback] = app.callbacks
            expect(callback).toBeDefined()
            const params = oauth.validateAuthResponse(as, client, callback ?? new URL(redirectUri), state)
            const tokens = yield* Effect.promise(async () =>
              oauth.processAuthorizationCodeResponse(
                as,
                client,
                await oauth.authorizationCodeGrantRequest(
                  as,
                  client,
                  oauth.None(),
                  params,
                  redirectUri,
                  verifier,
                  {
                    additionalParameters: { resource: `${origin}/api/v1` },
                    ...insecure
                  }
                )
              )
            )
            const read = yield* Effect.promise(async () => {
              const response = await oauth.protectedResourceRequest(
                tokens.access_token,
                "GET",
                new URL(`${origin}/api/v1/organizations/${String(organization.json.id)}`),
                undefined,
                undefined,
                insecure
              )
              return { status: response.status, json: (await response.json()) as Record<string, unknown> }
            })
            expect(read.status).toBe(200)
            expect(read.json).toMatchObject({ id: organization.json.id, name: "Browser Org" })

            // Another site copies the consent form, token included, and gets the person to submit it.
            yield* Effect.promise(() => page.goto(authorize.href))
            const fields = yield* Effect.promise(() =>
              page
                .locator('form[action="/oauth/authorize"] input[type=hidden]')
                .evaluateAll((inputs) =>
                  inputs.map((input) => [input.getAttribute("name") ?? "", input.getAttribute("value") ?? ""])
                )
            )
            const hidden = fields
              .map(
                ([name, value]) =>
                  `<input type="hidden" name="${escapeHtml(name ?? "")}" value="${escapeHtml(value ?? "")}">`
              )
              .join("")
            app.attackPage.html = `<!doctype html><title>Prize</title><form method="post" action="${origin}/oauth/authorize">${hidden}<input type="hidden" name="organization" value="${String(organization.json.id)}"><input type="hidden" name="decision" value="approve"><button>Claim your prize</button></form>`
            const before = app.callbacks.length
            for (const site of [app.url, app.url.replace("127.0.0.1", "localhost")]) {
              yield* Effect.promise(() => page.goto(`${site}/prize`))
              const [answer] = yield* Effect.promise(() =>
                Promise.all([
                  page.waitForResponse((response) => response.url() === `${origin}/oauth/authorize`),
                  page.getByRole("button", { name: "Claim your prize" }).click()
                ])
              )
              expect(answer.status(), site).toBe(403)
              expect(yield* Effect.promise(() => page.locator("h1").textContent())).toBe("Decision refused")
            }
            expect(app.callbacks.length).toBe(before)
          })
        ),
      90_000
    )
  })
})

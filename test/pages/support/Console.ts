// What the console's browser tests share: a server on a port chosen first (so PUBLIC_ORIGIN is the
// address the browser uses, and every mailed link too), one Chromium per test file, the links the
// outbox logs, JSON calls with the browser's own session (to check that the API sees what the pages
// did), and the checks every page gets: axe-core (no serious or critical violation), a language, a
// title, landmarks, nothing wider than a phone, visible focus, and (with SCREENSHOTS=1) screenshots
// at desktop and phone width, light and dark, for a person to look at (test/support/Screenshots.ts).
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as oauth from "oauth4webapi"
import type { BrowserContext, Page, Response } from "playwright-core"
import { type Backend, backends } from "../../foundation/support/Backends.js"
import { COOKIE, foundationServer, logLines } from "../../foundation/support/FoundationClient.js"
import { expectAccessible } from "../../support/Accessibility.js"
import { TestBrowser } from "../../support/Browser.js"
import { saveScreenshot } from "../../support/Screenshots.js"

/** The setups every flow runs in: each backend once, one with JavaScript off and one with it on. */
export interface ConsoleSetup {
  readonly backend: Backend
  readonly javaScript: boolean
}

/**
 * The service (foundation only) on `port`, whose public origin is that address; the browser is the
 * file's (`fileBrowser().layer(consoleServer(…))`).
 */
export const consoleServer = (backend: Backend, port: number, env: Record<string, string> = {}) =>
  foundationServer(backend.database, {
    PORT: String(port),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    ...env
  })

const backendNamed = (name: string): Backend => {
  const found = backends.find((backend) => backend.name === name)
  if (found === undefined) throw new Error(`No backend ${name}`)
  return found
}

/** Each backend once: PGlite without JavaScript, PostgreSQL with it. */
export const consoleSetups: ReadonlyArray<ConsoleSetup> = [
  { backend: backendNamed("PGlite"), javaScript: false },
  { backend: backendNamed("PostgreSQL"), javaScript: true }
]

export const setupName = (setup: ConsoleSetup) =>
  `${setup.backend.name}, JavaScript ${setup.javaScript ? "on" : "off"}`

/** A person's browser: its own cookies, JavaScript as the setup says, closed with the scope. */
export const personBrowser = (
  javaScript: boolean,
  options: { readonly colorScheme?: "light" | "dark"; readonly clipboard?: boolean } = {}
): Effect.Effect<
  { readonly context: BrowserContext; readonly page: Page },
  never,
  TestBrowser | Scope.Scope
> =>
  Effect.gen(function* () {
    const browser = yield* TestBrowser
    const context = yield* Effect.acquireRelease(
      Effect.promise(() =>
        browser.newContext({
          javaScriptEnabled: javaScript,
          viewport: { width: 1200, height: 900 },
          colorScheme: options.colorScheme ?? "light"
        })
      ),
      (context) => Effect.promise(() => context.close())
    )
    if (options.clipboard === true) {
      yield* Effect.promise(() => context.grantPermissions(["clipboard-read", "clipboard-write"]))
    }
    const page = yield* Effect.promise(() => context.newPage())
    return { context, page }
  })

/** The browser's session cookie for `origin`, as a Cookie header value. */
export const sessionCookieOf = (context: BrowserContext, origin: string) =>
  Effect.map(
    Effect.promise(() => context.cookies(origin)),
    (cookies) => {
      const value = cookies.find((cookie) => cookie.name === COOKIE)?.value
      return value === undefined ? undefined : `${COOKIE}=${value}`
    }
  )

export interface ApiAnswer {
  readonly status: number
  readonly json: unknown
}

/** One JSON call to the foundation API, as a script of this origin makes it with `cookie`. */
export const api = (
  origin: string,
  path: string,
  options: { readonly cookie?: string | undefined; readonly body?: unknown; readonly method?: string } = {}
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
    return { status: response.status, json: text === "" ? undefined : JSON.parse(text) }
  })

let counter = 0
/** An address no other test uses. */
export const uniqueEmail = (label: string) => `${label}.${process.pid}.${Date.now()}.${counter++}@example.com`

/** The link of the newest outbox message of `kind` to `recipient`, as the log shows it. */
export const mailedLink = (kind: "verify-email" | "change-email" | "invitation", recipient: string) =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 200; attempt++) {
      const line = logLines.findLast(
        (text) => text.startsWith(`Outbox ${kind} `) && text.includes(` to ${recipient}: `)
      )
      const link = line === undefined ? undefined : /: (http\S+)$/.exec(line)?.[1]
      if (link !== undefined) return link
      yield* Effect.sleep("50 millis")
    }
    throw new Error(`No ${kind} message to ${recipient}`)
  })

/** Goes to `url`; returns the document's answer. */
export const open = (page: Page, url: string) =>
  Effect.promise(async () => {
    const response = await page.goto(url)
    if (response === null) throw new Error(`No answer for ${url}`)
    return response
  })

/** Clicks what `click` names and returns the answer of the page it leads to (after redirects). */
export const navigateBy = (page: Page, click: (page: Page) => Promise<void>) =>
  Effect.promise(async (): Promise<Response> => {
    const [response] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().isNavigationRequest() &&
          response.request().frame() === page.mainFrame() &&
          (response.status() < 300 || response.status() >= 400)
      ),
      click(page)
    ])
    await page.waitForLoadState("domcontentloaded")
    return response
  })

/** Presses the button named `name` and returns the answer of the page it leads to. */
export const press = (page: Page, name: string | RegExp) =>
  navigateBy(page, (page) => page.getByRole("button", { name, exact: typeof name === "string" }).click())

/** Follows the link named `name`. */
export const follow = (page: Page, name: string | RegExp) =>
  navigateBy(page, (page) => page.getByRole("link", { name, exact: typeof name === "string" }).click())

/** Types into the field labelled `label`. */
export const fill = (page: Page, label: string | RegExp, value: string) =>
  Effect.promise(() => page.getByLabel(label, { exact: typeof label === "string" }).fill(value))

export const heading = (page: Page) =>
  Effect.promise(async () => (await page.locator("h1").first().textContent())?.trim() ?? "")

export const mainText = (page: Page) =>
  Effect.promise(async () => (await page.locator("main").textContent()) ?? "")

/** The headers every console page carries: personal (never stored), never framed, HTML. */
export const expectPersonal = (response: Response) =>
  Effect.promise(async () => {
    const headers = await response.allHeaders()
    expect(headers["cache-control"]).toBe("no-store")
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'")
    expect(headers["x-frame-options"]).toBe("DENY")
    expect(headers["content-type"]).toBe("text/html; charset=utf-8")
  })

/** A language, a title, a banner, a main landmark, every field labelled. */
export const expectLandmarks = (page: Page, label: string) =>
  Effect.promise(async () => {
    expect(await page.locator("html").getAttribute("lang"), label).toBe("en")
    expect((await page.title()).length, label).toBeGreaterThan(0)
    expect(await page.locator("header.site").count(), label).toBe(1)
    expect(await page.locator("main").count(), label).toBe(1)
    const unlabelled = await page.locator("input:not([type=hidden]), select, textarea").evaluateAll(
      (fields) =>
        fields.filter((field) => {
          const id = field.getAttribute("id")
          return (
            field.getAttribute("aria-label") === null &&
            (id === null || field.ownerDocument.querySelector(`label[for="${id}"]`) === null) &&
            field.closest("label") === null
          )
        }).length
    )
    expect(unlabelled, `unlabelled fields on ${label}`).toBe(0)
  })

/**
 * Checks the page as it is: its landmarks and labels; with JavaScript on, also axe (light and dark),
 * the phone width and visible focus, and its screenshots (`photograph`), named `label`.
 */
export const checkPage = (page: Page, label: string, javaScript: boolean) =>
  Effect.gen(function* () {
    yield* expectLandmarks(page, label)
    if (javaScript) yield* photograph(page, label.toLowerCase().replace(/[^a-z0-9]+/g, "-"))
  })

/**
 * The page (as it is now) at desktop and phone width, light and dark: axe in both colour schemes
 * (contrast differs), nothing wider than the phone's screen, keyboard focus visible, and screenshots
 * of each when they are wanted (SCREENSHOTS=1). The page must be in a context with JavaScript on and
 * the profile's theme `system`.
 */
export const photograph = (page: Page, name: string) =>
  Effect.gen(function* () {
    for (const scheme of ["light", "dark"] as const) {
      yield* Effect.promise(() => page.emulateMedia({ colorScheme: scheme }))
      yield* expectAccessible(page, `${name} (${scheme})`)
      for (const [width, height, size] of [
        [1200, 900, "desktop"],
        [390, 844, "phone"]
      ] as const) {
        yield* Effect.promise(() => page.setViewportSize({ width, height }))
        yield* Effect.promise(() => saveScreenshot(page, `${name}-${size}-${scheme}`, { fullPage: true }))
        if (size === "phone") {
          // Nothing wider than the phone's screen: the page reflows instead of scrolling sideways.
          const overflow = yield* Effect.promise(
            () =>
              page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
              ) as Promise<number>
          )
          expect(overflow, `${name} scrolls sideways at phone width`).toBeLessThanOrEqual(0)
        }
      }
    }
    yield* Effect.promise(() => page.setViewportSize({ width: 1200, height: 900 }))
    yield* Effect.promise(() => page.emulateMedia({ colorScheme: "light" }))
    // The first Tab lands on the skip link, which shows itself with an outline.
    yield* Effect.promise(() => page.keyboard.press("Tab"))
    const focus = yield* Effect.promise(
      () =>
        page.evaluate(
          "(() => { const e = document.activeElement; const s = e && getComputedStyle(e); return s ? s.outlineStyle + ' ' + s.outlineWidth : 'none' })()"
        ) as Promise<string>
    )
    expect(focus.startsWith("none"), `${name}: the focused element shows no outline (${focus})`).toBe(false)
  })

const insecure = { [oauth.allowInsecureRequests]: true } as const

export interface App {
  readonly url: string
  readonly redirectUri: string
  /** Every URL the browser brought to the app's redirect URI, in order. */
  readonly callbacks: Array<URL>
}

/** An app: a loopback server whose /callback records what the browser brings back. */
export const appServer = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<App & { readonly server: Http.Server }>((resolve) => {
        const callbacks: Array<URL> = []
        const server = Http.createServer((request, response) => {
          const address = server.address() as AddressInfo
          const url = new URL(request.url ?? "/", `http://127.0.0.1:${address.port}`)
          if (url.pathname === "/callback") callbacks.push(url)
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
          response.end(
            "<!doctype html><html lang=en><title>App</title><main><h1>The app got its answer</h1></main>"
          )
        })
        server.listen(0, "127.0.0.1", () => {
          const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
          resolve({ server, url, redirectUri: `${url}/callback`, callbacks })
        })
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

export interface Authorization {
  readonly as: oauth.AuthorizationServer
  readonly client: oauth.Client
  readonly url: URL
  readonly state: string
  readonly verifier: string
}

/** The app registers itself (RFC 7591) as `name` and starts an authorization request with PKCE. */
export const startAuthorization = (origin: string, app: App, name: string, scope = "organizations:read") =>
  Effect.promise(async (): Promise<Authorization> => {
    const issuer = new URL(origin)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure })
    )
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: name, redirect_uris: [app.redirectUri], token_endpoint_auth_method: "none" },
        insecure
      )
    )
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint ?? "")
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: app.redirectUri,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      scope,
      resource: `${origin}/api/v1`
    }).toString()
    return { as, client, url, state, verifier }
  })

/** The app exchanges the code its redirect URI got (the newest callback) for tokens. */
export const exchangeCode = (origin: string, app: App, authorization: Authorization) =>
  Effect.promise(async () => {
    const callback = app.callbacks.at(-1)
    if (callback === undefined) throw new Error("The app got no callback")
    const { as, client } = authorization
    const params = oauth.validateAuthResponse(as, client, callback, authorization.state)
    return oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        app.redirectUri,
        authorization.verifier,
        { additionalParameters: { resource: `${origin}/api/v1` }, ...insecure }
      )
    )
  })

/** A bearer call to the foundation API. */
export const bearerStatus = (origin: string, path: string, token: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } })
    await response.text()
    return response.status
  })

/** The person, signed in in `page`, allows the app on the organization named `organization`. */
export const allowInBrowser = (page: Page, authorization: Authorization, organization: RegExp) =>
  Effect.gen(function* () {
    yield* open(page, authorization.url.href)
    yield* Effect.promise(() => page.getByRole("radio", { name: organization }).check())
    yield* Effect.promise(() => page.getByRole("button", { name: "Allow" }).click())
    yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/callback"))
  })

/** Signs `email` in on the sign-in page (opened at `origin`), landing where it returns to. */
export const signInOnPage = (
  page: Page,
  origin: string,
  email: string,
  password: string,
  path = "/sign-in"
) =>
  Effect.gen(function* () {
    yield* open(page, `${origin}${path}`)
    yield* fill(page, "Email", email)
    yield* fill(page, "Password", password)
    return yield* press(page, "Sign in")
  })

/** A new account made with the API, its address verified by its mailed link. */
export const verifiedAccount = (origin: string, label: string, password: string) =>
  Effect.gen(function* () {
    const email = uniqueEmail(label)
    const created = yield* Effect.promise(async () => {
      const response = await fetch(`${origin}/api/v1/auth/sign-up`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email, password, name: label })
      })
      await response.text()
      return { status: response.status, cookie: response.headers.get("set-cookie")?.split(";")[0] ?? "" }
    })
    expect(created.status).toBe(200)
    const link = new URL(yield* mailedLink("verify-email", email))
    const verified = yield* api(origin, "/auth/verify-email", {
      body: { token: link.searchParams.get("token") }
    })
    expect(verified.status).toBe(200)
    return { email, password, cookie: created.cookie }
  })

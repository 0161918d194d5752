// An agent connects to /mcp/agent as MCP's authorization specification says, with the official SDK
// client (`client/auth.js` and StreamableHTTPClientTransport with an `authProvider`): its first request
// gets 401, it discovers the resource and authorization-server metadata, registers (once with a
// Client ID Metadata Document served over TLS on loopback by a test CA the service is told to trust,
// once by dynamic registration), and sends the person to the authorization URL, where headless
// Chromium signs in and approves one organization with write access. The client finishes the
// exchange, saves and lists a note, and the note shows in notes.list for that organization's members
// and no one else. The server listens on a port chosen first, so PUBLIC_ORIGIN is its own address.
import * as Http from "node:http"
import * as Https from "node:https"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import type { Browser } from "playwright-core"
import { browserUnavailable, launchBrowser, newContext } from "../support/Browser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"
import { certificatesUnavailable, makeTestCertificates } from "../support/TestCertificates.js"
import { ownOriginAgentServer } from "./support/AgentServer.js"

const skip = browserUnavailable ?? certificatesUnavailable
const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const certificates = skip === undefined ? makeTestCertificates("agent test CA") : undefined

/** A loopback server, closed with the scope. */
const listening = <S extends Http.Server>(server: S) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: S; port: number }>((resolve) => {
          server.listen(0, "127.0.0.1", () =>
            resolve({ server, port: (server.address() as AddressInfo).port })
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

/** The agent's redirect target: records the codes the browser brings back. */
const callbackServer = Effect.gen(function* () {
  const codes: Array<URL> = []
  const { port: appPort } = yield* listening(
    Http.createServer((request, response) => {
      // Only the redirect counts (the browser also asks for /favicon.ico).
      const url = new URL(request.url ?? "/", "http://127.0.0.1")
      if (url.pathname === "/callback") codes.push(url)
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end("<!doctype html><title>Connected</title><h1>The agent got its answer</h1>")
    })
  )
  return { redirectUrl: `http://127.0.0.1:${appPort}/callback`, codes }
})

/** The agent's Client ID Metadata Document, over https with the test CA's certificate. */
const metadataDocumentServer = (redirectUrl: string) =>
  Effect.gen(function* () {
    const document: { json: string } = { json: "{}" }
    const { port: tlsPort } = yield* listening(
      Https.createServer({ key: certificates?.key, cert: certificates?.cert }, (_, response) => {
        response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=60" })
        response.end(document.json)
      })
    )
    const url = `https://127.0.0.1:${tlsPort}/agent/client.json`
    document.json = JSON.stringify({
      client_id: url,
      client_name: "Notebook agent (CIMD)",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    })
    return url
  })

/** An OAuthClientProvider kept in memory, as a desktop agent keeps it on disk. */
const memoryProvider = (redirectUrl: string, name: string, clientMetadataUrl?: string) => {
  const state: {
    client?: OAuthClientInformationMixed
    tokens?: OAuthTokens
    verifier?: string
    authorizationUrl?: URL
  } = {}
  const metadata: OAuthClientMetadata = {
    client_name: name,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none"
  }
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl
    },
    ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl }),
    get clientMetadata() {
      return metadata
    },
    clientInformation: () => state.client,
    saveClientInformation: (client) => {
      state.client = client
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens
    },
    redirectToAuthorization: (url) => {
      state.authorizationUrl = url
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier
    },
    codeVerifier: () => state.verifier ?? ""
  }
  return { provider, state }
}

/** A JSON call to the foundation API as a script of the person would make it. */
const api = (path: string, init: { body?: unknown; cookie?: string; method?: string } = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        "content-type": "application/json",
        origin,
        ...(init.cookie === undefined ? {} : { cookie: init.cookie })
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
    })
    return {
      status: response.status,
      json: (await response.json()) as Record<string, unknown>,
      cookie: (response.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    }
  })

/**
 * The whole connection: the SDK's first attempt meets 401 and asks for the person's browser; the
 * person signs in and allows `organization`; the SDK finishes the exchange and connects again.
 */
const connectAsPerson = (
  browser: Browser,
  provider: ReturnType<typeof memoryProvider>,
  callback: { readonly codes: Array<URL> },
  person: { readonly email: string; readonly password: string; readonly organization: string }
) =>
  Effect.gen(function* () {
    const endpoint = new URL(`${origin}/mcp/agent`)
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider.provider })
    const refused = yield* Effect.promise(() =>
      new Client({ name: "notebook-agent", version: "1.0.0" }).connect(first).then(
        () => undefined,
        (error: unknown) => error
      )
    )
    expect(refused).toBeInstanceOf(UnauthorizedError)
    const authorizationUrl = provider.state.authorizationUrl
    expect(authorizationUrl?.searchParams.get("resource")).toBe(`${origin}/mcp/agent`)
    expect(authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256")

    const { context } = yield* newContext(browser)
    const page = yield* Effect.promise(() => context.newPage())
    yield* Effect.promise(() => page.goto(authorizationUrl?.href ?? ""))
    expect(new URL(page.url()).pathname).toBe("/sign-in")
    yield* Effect.promise(() => page.getByLabel("Email").fill(person.email))
    yield* Effect.promise(() => page.getByLabel("Password").fill(person.password))
    yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())
    yield* Effect.promise(() =>
      page.waitForURL((url) => url.pathname === "/oauth/authorize", { timeout: 10_000 })
    )
    const consent = (yield* Effect.promise(() => page.locator("main").textContent())) ?? ""
    expect(consent).toContain(`${origin}/mcp/agent`)
    yield* Effect.promise(() => page.getByRole("radio", { name: new RegExp(person.organization) }).check())
    yield* Effect.promise(() => page.getByRole("button", { name: "Allow" }).click())
    yield* Effect.promise(() => page.waitForURL((url) => url.pathname === "/callback"))
    const code = callback.codes.at(-1)?.searchParams.get("code")
    expect(code, callback.codes.at(-1)?.href).toBeTypeOf("string")
    yield* Effect.promise(() => first.finishAuth(code ?? ""))
    expect(provider.state.tokens?.scope).toBe("notes:read notes:write")

    const client = new Client({ name: "notebook-agent", version: "1.0.0" })
    yield* Effect.acquireRelease(
      Effect.promise(() =>
        client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider.provider }))
      ),
      () => Effect.promise(() => client.close())
    )
    return client
  })

const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(async () => (await client.callTool({ name, arguments: args })) as CallToolResult)

describeNeeding(skip)("an MCP agent connects to /mcp/agent with the SDK and a person's browser", () => {
  layer(
    ownOriginAgentServer(port, {
      OAUTH_ALLOW_PRIVATE_ADDRESSES: "true",
      OAUTH_EXTRA_CA_FILE: certificates?.caFile ?? ""
    }),
    { timeout: 120_000, excludeTestServices: true }
  )((it) => {
    it.scoped(
      "registered by a Client ID Metadata Document and then by dynamic registration, the agent is approved in the browser, saves and lists a note, and only the organization's members see it",
      () =>
        Effect.gen(function* () {
          const browser = yield* launchBrowser
          const email = `agent.owner.${Date.now()}@example.com`
          const password = "agent owner password"
          const signedUp = yield* api("/auth/sign-up", { body: { email, password, name: "Ada" } })
          const cookie = signedUp.cookie
          const organization = yield* api("/organizations", { body: { name: "Notebook Org" }, cookie })
          yield* api("/organizations", { body: { name: "Other Org" }, cookie })
          const outsider = yield* api("/auth/sign-up", {
            body: { email: `agent.outsider.${Date.now()}@example.com`, password, name: "Olu" }
          })

          const callback = yield* callbackServer
          const documentUrl = yield* metadataDocumentServer(callback.redirectUrl)
          const byDocument = memoryProvider(callback.redirectUrl, "Notebook agent (CIMD)", documentUrl)
          const viaDocument = yield* connectAsPerson(browser, byDocument, callback, {
            email,
            password,
            organization: "Notebook Org"
          })
          expect(byDocument.state.client?.client_id).toBe(documentUrl)

          const saved = yield* callTool(viaDocument, "save_note", {
            slug: "4",
            paragraph_index: 1,
            text: "Ask the keeper about the fog bell."
          })
          expect(saved.isError ?? false).toBe(false)
          const note = saved.structuredContent as { id: string; clientId: string }
          expect(note.clientId).toBe(documentUrl)
          const listed = yield* callTool(viaDocument, "list_notes")
          expect(
            (listed.structuredContent as { items: Array<{ id: string }> }).items.map((item) => item.id)
          ).toEqual([note.id])

          const byRegistration = memoryProvider(callback.redirectUrl, "Notebook agent (registered)")
          const viaRegistration = yield* connectAsPerson(browser, byRegistration, callback, {
            email,
            password,
            organization: "Notebook Org"
          })
          expect(byRegistration.state.client?.client_id).toMatch(/^cli_/)
          const second = yield* callTool(viaRegistration, "save_note", {
            slug: "3",
            text: "Compare logbooks."
          })
          expect(second.isError ?? false).toBe(false)

          const forMember = yield* api(`/organizations/${String(organization.json.id)}/notes`, { cookie })
          expect(forMember.status).toBe(200)
          const items = forMember.json.items as Array<{ id: string; clientId: string; text: string }>
          expect(items.map((item) => item.text)).toEqual([
            "Ask the keeper about the fog bell.",
            "Compare logbooks."
          ])
          expect(items[0]?.clientId).toBe(documentUrl)
          const forOutsider = yield* api(`/organizations/${String(organization.json.id)}/notes`, {
            cookie: outsider.cookie
          })
          expect(forOutsider.status).toBe(404)
        }),
      120_000
    )
  })
})

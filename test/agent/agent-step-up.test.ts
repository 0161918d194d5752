// A plain member (role member) connects an agent to /mcp/agent from its URL alone, with the stock
// SDK v2 client (`@modelcontextprotocol/client`, its defaults, an OAuthClientProvider kept in
// memory): the first request meets 401, the SDK reads the protected-resource and authorization-server
// metadata, registers itself (dynamic registration: the agent hosts no metadata document) and sends
// the person to the authorization URL with PKCE. In headless Chromium the member signs in, unticks
// notes:write and allows. Reading works; save_note meets the 403 insufficient_scope challenge, and
// the SDK's step-up sends the person back to consent asking notes:write as well; once they allow,
// the retried call saves the note, and nothing was written before. The server listens on a port
// chosen first, on loopback, so PUBLIC_ORIGIN is its own address: the SDK refuses a token endpoint
// on plain http anywhere else.
//
// The v1 client (`@modelcontextprotocol/sdk` 1.32) is not driven here: on 403 insufficient_scope it
// calls `auth()` without forcing a new authorization, so a token with a refresh token is refreshed
// (which cannot widen a grant) and the retry ends in "Server returned 403 after trying upscoping".
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { expect, layer } from "@effect/vitest"
import {
  type CallToolResult,
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError
} from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import { invitationLinkFor, linkTokenFor } from "../foundation/support/FoundationClient.js"
import { browserUnavailable, launchBrowser } from "../support/Browser.js"
import { approveInBrowser } from "../support/ConsentInBrowser.js"
import { freePort } from "../support/FreePort.js"
import { describeNeeding } from "../support/Needs.js"
import { ownOriginAgentServer } from "./support/AgentServer.js"

const port = await freePort()
const origin = `http://127.0.0.1:${port}`
const endpoint = new URL(`${origin}/mcp/agent`)

/** The agent's redirect target on loopback, closed with the scope. */
const callbackServer = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<Http.Server>((resolve) => {
        const server = Http.createServer((_, response) => {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
          response.end("<!doctype html><title>Connected</title><h1>The agent got its answer</h1>")
        })
        server.listen(0, "127.0.0.1", () => resolve(server))
      })
  ),
  (server) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
    )
).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`))

/** What a desktop agent keeps on disk, kept in memory; the authorization URL is where it would open the browser. */
const memoryProvider = (redirectUrl: string) => {
  const state: {
    client?: StoredOAuthClientInformation
    tokens?: StoredOAuthTokens
    verifier?: string
    discovery?: OAuthDiscoveryState
    authorizationUrls: Array<URL>
  } = { authorizationUrls: [] }
  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: {
      client_name: "Notebook agent",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
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
      state.authorizationUrls.push(url)
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier
    },
    codeVerifier: () => state.verifier ?? "",
    discoveryState: () => state.discovery,
    saveDiscoveryState: (discovery) => {
      state.discovery = discovery
    }
  }
  return { provider, state }
}

/** A JSON call to the foundation API as the person's own script would make it, on the service's origin. */
const api = (path: string, body?: unknown, cookie?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", origin, ...(cookie === undefined ? {} : { cookie }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const json = (await response.json()) as Record<string, unknown>
    expect(response.status, `${path}: ${JSON.stringify(json)}`).toBe(200)
    return { json, cookie: (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "" }
  })

const rejection = (promise: Promise<unknown>) =>
  Effect.promise(() =>
    promise.then(
      () => undefined,
      (error: unknown) => error
    )
  )

describeNeeding(browserUnavailable)("a plain member connects an agent with the stock SDK v2 client", () => {
  layer(ownOriginAgentServer(port), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.scoped(
      "from the URL alone: granted notes:read only, it reads; save_note is challenged, the person allows notes:write in the browser, and the retried call saves the note",
      () =>
        Effect.gen(function* () {
          const password = "plain member password"
          const ownerEmail = `step-up.owner.${Date.now()}@example.com`
          const memberEmail = `step-up.member.${Date.now()}@example.com`
          const owner = yield* api("/auth/sign-up", { email: ownerEmail, password, name: "Ada" })
          const organization = yield* api("/organizations", { name: "Lighthouse Keepers" }, owner.cookie)
          const organizationId = String(organization.json.id)
          yield* api(
            `/organizations/${organizationId}/invitations`,
            { email: memberEmail, role: "member" },
            owner.cookie
          )
          const member = yield* api("/auth/sign-up", { email: memberEmail, password, name: "Mo" })
          yield* api("/auth/verify-email", { token: yield* linkTokenFor(memberEmail) })
          const invitation = yield* invitationLinkFor(memberEmail)
          yield* api(`/invitations/${invitation.id}/accept`, {}, member.cookie)
          const person = { email: memberEmail, password }

          const browser = yield* launchBrowser
          const agent = memoryProvider(yield* callbackServer)
          const connecting = new StreamableHTTPClientTransport(endpoint, { authProvider: agent.provider })
          const refused = new Client({ name: "notebook-agent", version: "1.0.0" }).connect(connecting)

          // The first request meets 401; the SDK discovers, registers and asks for the person's browser.
          expect(yield* rejection(refused)).toBeInstanceOf(UnauthorizedError)
          expect(agent.state.client?.client_id).toMatch(/^cli_/)
          const first = agent.state.authorizationUrls.at(-1)
          expect(first?.origin).toBe(origin)
          expect(first?.searchParams.get("resource")).toBe(endpoint.href)
          expect(first?.searchParams.get("scope")).toBe("notes:read notes:write")
          expect(first?.searchParams.get("code_challenge_method")).toBe("S256")
          const readOnly = yield* approveInBrowser(browser, first?.href ?? "", person, {
            organization: "Lighthouse Keepers",
            withhold: ["notes:write"]
          })
          expect(readOnly.consentText).toContain("(member)")
          yield* Effect.promise(() => connecting.finishAuth(readOnly.landedOn.searchParams))
          expect(agent.state.tokens?.scope).toBe("notes:read")

          // Connected again with the tokens, as the SDK's examples do once the callback came.
          const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: agent.provider })
          const client = new Client({ name: "notebook-agent", version: "1.0.0" })
          yield* Effect.acquireRelease(
            Effect.promise(() => client.connect(transport)),
            () => Effect.promise(() => client.close())
          )
          const call = (name: string, args: Record<string, unknown> = {}) =>
            Effect.promise((): Promise<CallToolResult> => client.callTool({ name, arguments: args }))
          const empty = yield* call("list_notes")
          expect(empty.structuredContent).toMatchObject({ items: [] })

          // save_note meets 403 insufficient_scope; the SDK asks again for what it had and what it lacks.
          const note = { slug: "4", paragraph_index: 1, text: "Ask the keeper about the fog bell." }
          const challenged = yield* rejection(client.callTool({ name: "save_note", arguments: note }))
          expect(challenged).toBeInstanceOf(UnauthorizedError)
          expect(agent.state.authorizationUrls).toHaveLength(2)
          const second = agent.state.authorizationUrls.at(-1)
          expect(second?.searchParams.get("scope")).toBe("notes:read notes:write")
          expect(second?.searchParams.get("resource")).toBe(endpoint.href)
          expect((yield* call("list_notes")).structuredContent).toMatchObject({ items: [] })

          const both = yield* approveInBrowser(browser, second?.href ?? "", person, {
            organization: "Lighthouse Keepers"
          })
          yield* Effect.promise(() => transport.finishAuth(both.landedOn.searchParams))
          expect(agent.state.tokens?.scope).toBe("notes:read notes:write")
          const saved = yield* call("save_note", note)
          expect(saved.isError ?? false).toBe(false)
          const savedNote = saved.structuredContent as { id: string; organizationId: string; text: string }
          expect(savedNote).toMatchObject({ organizationId, text: note.text })

          const listed = yield* call("list_notes")
          expect(
            (listed.structuredContent as { items: Array<{ id: string }> }).items.map((item) => item.id)
          ).toEqual([savedNote.id])
          const fetched = yield* call("get_note", { id: savedNote.id })
          expect(fetched.structuredContent).toMatchObject({
            id: savedNote.id,
            episodeSlug: "4",
            paragraphIndex: 1,
            text: note.text,
            clientId: agent.state.client?.client_id
          })
        }),
      120_000
    )
  })
})

// The catalog's MCP App at the protocol level (catalog-extensions §13): to a client that declares the
// MCP Apps extension, get_episode, search_episodes and search_transcripts name the `ui://` view and
// resources/read serves it, an HTML document whose policy loads nothing but the feed's audio; to every
// other client, and in the stateless 2025 revisions, the servers answer exactly as before. The view
// itself, driven by the extension's host bridge in Chromium, is test/catalog/mcp-app-host.test.ts.
import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import type { ClientCapabilities, TextResourceContents, Tool } from "@modelcontextprotocol/client"
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY
} from "@modelcontextprotocol/ext-apps/server"
import * as Effect from "effect/Effect"
import type { EpisodePage } from "../../src/catalog/domain/Collections.js"
import { catalogViewUri } from "../../src/catalog/mcp/CatalogView.js"
import { catalogViewScript } from "../../src/catalog/mcp/CatalogViewScript.js"
import { catalogViewStyle } from "../../src/catalog/mcp/CatalogViewStyle.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { appsCapabilities, type ClientKind, type McpSession, mcpSession } from "../support/McpClients.js"
import { request } from "../support/TestServer.js"

const viewTools = ["get_episode", "search_episodes", "search_transcripts"]

const connect = (path: string, kind: ClientKind, capabilities?: ClientCapabilities) =>
  Effect.flatMap(ServerAddress, (address) =>
    mcpSession(kind, new URL(`${address.url}${path}`), capabilities === undefined ? {} : { capabilities })
  )

const listTools = (session: McpSession) => Effect.promise(() => session.listTools())

/** A tool as a client without the extension sees it. */
const withoutMeta = ({ _meta, ...tool }: Tool) => tool

/** One raw 2026-07-28 request, its client declaring `capabilities`. */
const modern = (path: string, method: string, capabilities: ClientCapabilities, params: object = {}) =>
  Effect.map(
    request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...("uri" in params ? { "mcp-name": String(params.uri) } : {})
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities
          }
        }
      })
    }),
    (response) =>
      response.json as { result?: Record<string, unknown>; error?: { code: number; message: string } }
  )

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64")

describe("the catalog's MCP App (/mcp)", () => {
  it.layer(contentTestServer())((it) => {
    it.scoped(
      "to a client that shows MCP Apps, get_episode, search_episodes and search_transcripts name the view, and nothing else of the tools changes",
      () =>
        Effect.gen(function* () {
          const apps = yield* listTools(yield* connect("/mcp", "v2 client, 2026-07-28", appsCapabilities))
          const plain = yield* listTools(yield* connect("/mcp", "v2 client, 2026-07-28"))
          for (const tool of apps) {
            if (viewTools.includes(tool.name)) {
              expect(tool._meta, tool.name).toEqual({
                ui: { resourceUri: catalogViewUri },
                [RESOURCE_URI_META_KEY]: catalogViewUri
              })
            } else {
              expect(tool._meta, tool.name).toBeUndefined()
            }
          }
          expect(apps.map(withoutMeta)).toEqual(plain)
          expect(plain.every((tool) => tool._meta === undefined)).toBe(true)
        })
    )

    it.scoped(
      "resources/read serves the view: one HTML document of the extension's type whose policy loads nothing but the feed's audio",
      () =>
        Effect.gen(function* () {
          const session = yield* connect("/mcp", "v2 client, 2026-07-28", appsCapabilities)
          expect(session.serverCapabilities?.resources).toBeDefined()
          expect(session.serverCapabilities?.extensions?.[EXTENSION_ID]).toEqual({})
          const listed = yield* Effect.promise(() => session.listResources())
          expect(listed.map((resource) => [resource.uri, resource.mimeType])).toEqual([
            [catalogViewUri, RESOURCE_MIME_TYPE]
          ])
          const read = yield* Effect.promise(() => session.readResource(catalogViewUri))
          expect(read.contents).toHaveLength(1)
          const [contents] = read.contents as ReadonlyArray<TextResourceContents>
          expect(contents?.uri).toBe(catalogViewUri)
          expect(contents?.mimeType).toBe(RESOURCE_MIME_TYPE)
          const html = contents?.text ?? ""
          expect(listed[0]?.size).toBe(Buffer.byteLength(html))
          expect(html.startsWith("<!doctype html>")).toBe(true)
          // The feed's audio hosts, from every episode the catalog lists.
          const episodes = (yield* request("/v1/episodes?limit=50")).json as typeof EpisodePage.Encoded
          const audio = [...new Set(episodes.data.map((episode) => new URL(episode.audio.url).origin))].sort()
          expect(audio).toEqual(["https://cdn.contourlines.example"])
          const csp = { connectDomains: [], resourceDomains: audio, frameDomains: [], baseUriDomains: [] }
          expect(contents?._meta).toEqual({ ui: { csp, prefersBorder: true } })
          expect(listed[0]?._meta).toEqual({ ui: { csp, prefersBorder: true } })
          // The document's own policy: its script and stylesheet by hash, media from the audio host only.
          const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]
          expect(policy?.split("; ")).toEqual([
            "default-src 'none'",
            `script-src 'sha256-${sha256(catalogViewScript)}'`,
            `style-src 'sha256-${sha256(catalogViewStyle)}'`,
            `media-src ${audio.join(" ")}`,
            "base-uri 'none'",
            "form-action 'none'"
          ])
          expect(html).toContain(`<script>${catalogViewScript}</script>`)
          expect(html).toContain(`<style>${catalogViewStyle}</style>`)
          // Nothing to fetch: no element names a source or a stylesheet, and the script builds no markup.
          expect(html).not.toMatch(/\s(src|href)=/)
          expect(catalogViewScript).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/)
          // Small, and the same document for every request.
          expect(Buffer.byteLength(html)).toBeLessThan(32_768)
          const again = yield* Effect.promise(() => session.readResource(catalogViewUri))
          expect(again).toEqual(read)
        })
    )

    it.scoped("the tools answer the same with and without the extension", () =>
      Effect.gen(function* () {
        const apps = yield* connect("/mcp", "v2 client, 2026-07-28", appsCapabilities)
        const plain = yield* connect("/mcp", "v2 client, 2026-07-28")
        for (const [name, args] of [
          ["get_episode", { slug: "7" }],
          ["search_episodes", { query: "tides", limit: 3 }],
          ["search_transcripts", { query: "fog signal", limit: 2 }],
          ["get_transcript", { slug: "7", max_characters: 80 }],
          ["get_episode", { slug: "999" }]
        ] as const) {
          const withApps = yield* Effect.promise(() => apps.callTool(name, args))
          const without = yield* Effect.promise(() => plain.callTool(name, args))
          expect(withApps, name).toEqual(without)
        }
      })
    )

    it.effect(
      "a client without the extension gets exactly the answers it got before: no _meta, no resources, no extension",
      () =>
        Effect.gen(function* () {
          for (const capabilities of [
            {},
            // The extension with another kind of view only.
            { extensions: { [EXTENSION_ID]: { mimeTypes: ["text/uri-list"] } } },
            { extensions: { [EXTENSION_ID]: {} } },
            // The type as a string, not a list: not the extension's settings (a substring is no match).
            { extensions: { [EXTENSION_ID]: { mimeTypes: RESOURCE_MIME_TYPE } } },
            { extensions: { "io.example/other": { mimeTypes: [RESOURCE_MIME_TYPE] } } }
          ]) {
            const label = JSON.stringify(capabilities)
            const tools = (yield* modern("/mcp", "tools/list", capabilities)).result
              ?.tools as ReadonlyArray<Tool>
            expect(tools, label).toHaveLength(4)
            expect(
              tools.filter((tool) => tool._meta !== undefined),
              label
            ).toEqual([])
            const discovered = (yield* modern("/mcp", "server/discover", capabilities)).result
            expect(discovered?.capabilities, label).toEqual({ tools: { listChanged: false } })
            expect((yield* modern("/mcp", "resources/list", capabilities)).error?.code, label).toBe(-32601)
            const read = yield* modern("/mcp", "resources/read", capabilities, { uri: catalogViewUri })
            expect(read.error?.code, label).toBe(-32601)
          }
          const discovered = (yield* modern("/mcp", "server/discover", appsCapabilities)).result
          expect(discovered?.capabilities).toEqual({
            tools: { listChanged: false },
            resources: { listChanged: false },
            extensions: { [EXTENSION_ID]: {} }
          })
        })
    )

    it.scoped(
      "in the stateless 2025 revisions, a client that declared the extension in initialize is answered as before",
      () =>
        Effect.gen(function* () {
          const declared = yield* connect("/mcp", "v2 client, defaults", appsCapabilities)
          expect(declared.protocolVersion).toBe("2025-11-25")
          expect(declared.serverCapabilities).toEqual({ tools: { listChanged: false } })
          const tools = yield* listTools(declared)
          expect(tools).toEqual(yield* listTools(yield* connect("/mcp", "v2 client, defaults")))
          expect(tools.filter((tool) => tool._meta !== undefined)).toEqual([])
        })
    )

    it.effect("resources/read of a view this server does not have is -32602 naming it", () =>
      Effect.gen(function* () {
        const uri = "ui://podcast-catalog/nothing.html"
        const answer = yield* modern("/mcp", "resources/read", appsCapabilities, { uri })
        expect(answer.error?.code).toBe(-32602)
        expect(answer.error?.message).toContain(uri)
      })
    )

    it.scoped(
      "/mcp/docs has no view: its tools and resources are the same for a client with the extension",
      () =>
        Effect.gen(function* () {
          const apps = yield* connect("/mcp/docs", "v2 client, 2026-07-28", appsCapabilities)
          const plain = yield* connect("/mcp/docs", "v2 client, 2026-07-28")
          expect(yield* listTools(apps)).toEqual(yield* listTools(plain))
          const resources = yield* Effect.promise(() => apps.listResources())
          expect(resources).toEqual(yield* Effect.promise(() => plain.listResources()))
          expect(resources.some((resource) => resource.uri.startsWith("ui://"))).toBe(false)
          expect(apps.serverCapabilities?.extensions).toBeUndefined()
        })
    )
  })
})

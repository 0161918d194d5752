// One snapshot folder, unchanged, served at once by two instances on two origins and by nginx as
// plain static files (catalog-extensions §6): each instance answers every link (REST details, lists
// and search hits, batch, RPC, MCP, ask, sandbox, OpenAPI) on its own origin, with strong ETags of
// its own bytes; the static host serves the folder's files as they are, links relative to its root.
import { createHash } from "node:crypto"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { CatalogClient } from "@podcast-platform/catalog-client"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { freePort } from "../support/FreePort.js"
import { nginxMissing, staticNginx } from "../support/Nginx.js"
import { testServer } from "../support/TestServer.js"

/** Every file of a folder with the SHA-256 of its bytes, to show that serving changed nothing. */
const folderHashes = (root: string): Record<string, string> => {
  const hashes: Record<string, string> = {}
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else hashes[relative(root, path)] = createHash("sha256").update(readFileSync(path)).digest("hex")
    }
  }
  walk(root)
  return hashes
}

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

const fetchText = (url: string, init?: RequestInit) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(url, init)
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

const json = (answer: Answer): unknown => JSON.parse(answer.text)

/** Every string in a JSON value that looks like a link to this API (`…/v1/…`). */
const apiLinks = (value: unknown): Array<string> =>
  typeof value === "string"
    ? /^https?:\/\/[^/]+\/v1\//.test(value)
      ? [value]
      : []
    : Array.isArray(value)
      ? value.flatMap(apiLinks)
      : typeof value === "object" && value !== null
        ? Object.values(value).flatMap(apiLinks)
        : []

/** A tool result of the stateless MCP endpoint, called as any JSON-RPC client would. */
const mcpTool = (origin: string, name: string, args: Record<string, unknown>) =>
  Effect.map(
    fetchText(`${origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } })
    }),
    (answer) => (json(answer) as { result: { structuredContent: unknown } }).result.structuredContent
  )

/** What the instance on `origin` answers that holds links, each answer's links collected. */
const linksAnswered = (origin: string) =>
  Effect.gen(function* () {
    const rpc = yield* Effect.flatMap(CatalogClient, (client) =>
      Effect.all([client.GetEpisode({ slug: "4" }), client.SearchTranscripts({ query: "fog", limit: 3 })])
    ).pipe(Effect.provide(CatalogClient.layer({ url: `${origin}/rpc` })))
    const batch = yield* fetchText(`${origin}/v1/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        requests: [
          { id: "a", path: "/v1/episodes/4" },
          { id: "b", path: "/v1/episodes?q=fog" }
        ]
      })
    })
    return {
      detail: apiLinks(json(yield* fetchText(`${origin}/v1/episodes/4`))),
      transcript: apiLinks(json(yield* fetchText(`${origin}/v1/transcripts/2`))),
      list: apiLinks(json(yield* fetchText(`${origin}/v1/episodes?limit=50`))),
      episodeSearch: apiLinks(json(yield* fetchText(`${origin}/v1/episodes?q=fog`))),
      transcriptSearch: apiLinks(json(yield* fetchText(`${origin}/v1/transcripts/search?q=fog`))),
      batch: apiLinks(json(batch)),
      rpc: apiLinks(JSON.parse(JSON.stringify(rpc))),
      mcp: apiLinks(yield* mcpTool(origin, "get_episode", { slug: "4" })),
      mcpSearch: apiLinks(yield* mcpTool(origin, "search_transcripts", { query: "fog" })),
      ask: apiLinks(
        json(yield* fetchText(`${origin}/ask?q=${encodeURIComponent("what about fog signals?")}`))
      ),
      sandbox: [
        ...apiLinks(json(yield* fetchText(`${origin}/sandbox`, { headers: { accept: "application/json" } }))),
        ...(JSON.stringify(
          json(yield* fetchText(`${origin}/sandbox`, { headers: { accept: "application/json" } }))
        )
          .match(/https?:\/\/[^\s'"\\]+/g)
          ?.filter((link) => !link.includes("fixture.example")) ?? [])
      ],
      servers: (
        json(yield* fetchText(`${origin}/openapi.json`)) as { servers: Array<{ url: string }> }
      ).servers.map((server) => server.url)
    }
  })

const twoInstances = Effect.gen(function* () {
  const directory = yield* buildFixtureSnapshot()
  const [portA, portB] = [yield* Effect.promise(freePort), yield* Effect.promise(freePort)]
  return { directory, portA, portB }
})

describe("one snapshot folder on any origin", () => {
  it.scoped(
    "two instances and a static host serve the same folder, each with its own links",
    () =>
      Effect.gen(function* () {
        const { directory, portA, portB } = yield* twoInstances
        const before = folderHashes(directory)
        // One instance takes the default origin (http://HOST:PORT), the other is told its public one.
        const originA = `http://127.0.0.1:${portA}`
        const originB = "http://catalog-b.test"
        const instanceA = yield* Layer.build(
          testServer({ FOUNDATION_ENABLED: "false", CATALOG_DIR: directory, PORT: String(portA) })
        )
        const instanceB = yield* Layer.build(
          testServer({
            FOUNDATION_ENABLED: "false",
            CATALOG_DIR: directory,
            PORT: String(portB),
            PUBLIC_ORIGIN: originB
          })
        )
        const urlA = instanceA.unsafeMap.get(ServerAddress.key) as { url: string }
        const urlB = instanceB.unsafeMap.get(ServerAddress.key) as { url: string }
        expect(urlA.url).toBe(originA)

        const linksA = yield* linksAnswered(urlA.url)
        // Instance B is reached on its port; it answers as the origin it was told it has.
        const linksB = yield* linksAnswered(urlB.url)
        for (const [surface, links] of Object.entries(linksA)) {
          expect(links.length, `${surface} answers links`).toBeGreaterThan(0)
          for (const link of links)
            expect(link.startsWith(`${originA}/`) || link === originA, `${surface}: ${link}`).toBe(true)
        }
        for (const [surface, links] of Object.entries(linksB)) {
          expect(links.length, `${surface} answers links`).toBeGreaterThan(0)
          for (const link of links)
            expect(link.startsWith(`${originB}/`) || link === originB, `${surface}: ${link}`).toBe(true)
        }

        // Strong ETags of each instance's own bytes; the same on repeated requests.
        // fetch asks for compressed answers unless told otherwise.
        const identity = { headers: { "accept-encoding": "identity" } }
        const detailA = yield* fetchText(`${urlA.url}/v1/episodes/4`, identity)
        const detailB = yield* fetchText(`${urlB.url}/v1/episodes/4`, identity)
        const etagOf = (text: string) => `"${createHash("sha256").update(text).digest("hex").slice(0, 32)}"`
        expect(detailA.headers.get("etag")).toBe(etagOf(detailA.text))
        expect(detailB.headers.get("etag")).toBe(etagOf(detailB.text))
        expect(detailA.headers.get("etag")).not.toBe(detailB.headers.get("etag"))
        expect((yield* fetchText(`${urlA.url}/v1/episodes/4`, identity)).headers.get("etag")).toBe(
          detailA.headers.get("etag")
        )
        for (const coding of ["gzip", "br"]) {
          const compressed = yield* Effect.promise(() =>
            fetch(`${urlB.url}/v1/episodes/4`, { headers: { "accept-encoding": coding } })
          )
          expect(compressed.headers.get("content-encoding")).toBe(coding)
          expect(compressed.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/)
          expect(compressed.headers.get("etag")).not.toBe(detailB.headers.get("etag"))
        }

        // The snapshot's files are the folder's bytes on every host, links relative to its root.
        const manifest = json(yield* fetchText(`${urlA.url}/v1/snapshot`)) as {
          episodes: Record<string, string>
        }
        const path = manifest.episodes["4"] as string
        const stored = readFileSync(join(directory, path), "utf8")
        expect(JSON.parse(stored).data.links.api).toBe("v1/episodes/4")
        expect((yield* fetchText(`${urlA.url}/snapshot/${path}`)).text).toBe(stored)
        expect((yield* fetchText(`${urlB.url}/snapshot/${path}`)).text).toBe(stored)
        if (nginxMissing === undefined) {
          const host = yield* staticNginx(directory)
          const served = yield* fetchText(`${host.url}/${path}`)
          expect(served.status).toBe(200)
          expect(served.text).toBe(stored)
          // A static consumer resolves the relative link against where it hosts the folder.
          expect(new URL(JSON.parse(served.text).data.links.api, `${host.url}/`).href).toBe(
            `${host.url}/v1/episodes/4`
          )
          expect((yield* fetchText(`${host.url}/manifest.json`)).text).toBe(
            readFileSync(join(directory, "manifest.json"), "utf8")
          )
        }
        expect(folderHashes(directory)).toEqual(before)
      }),
    120_000
  )
})

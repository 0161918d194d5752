// search_docs (the docs MCP server, /mcp/docs) shows the passage of each page that matches: over the
// real documentation, every snippet holds a word of the query (not merely the first paragraph that
// shares a short word with it), and where the query's words meet in one paragraph, the snippet is
// that paragraph's passage with all of them.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { wordSpans } from "../../src/catalog/SearchOptions.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request } from "../support/TestServer.js"

interface DocHit {
  readonly path: string
  readonly snippet: string
}

const searchDocs = (query: string) =>
  Effect.map(
    request("/mcp/docs", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_docs", arguments: { query } }
      })
    }),
    (response) => {
      const result = (response.json as { result: { structuredContent: { data: Array<DocHit> } } }).result
      return result.structuredContent.data
    }
  )

// Words that say nothing about what is sought; a snippet holding only these has not found the passage.
const functionWords = new Set([
  "if",
  "of",
  "the",
  "an",
  "to",
  "in",
  "on",
  "and",
  "or",
  "for",
  "with",
  "is",
  "it",
  "by"
])

/** The query's words as the index folds them, function words left out. */
const contentTerms = (query: string) =>
  [...new Set(wordSpans(query).map((span) => span.term))].filter((term) => !functionWords.has(term))

/** The query's content words the snippet holds (as words, or as the start of longer ones, like the index). */
const termsIn = (snippet: string, terms: ReadonlyArray<string>) => {
  const words = wordSpans(snippet).map((span) => span.term)
  return terms.filter((term) => words.some((word) => word === term || word.startsWith(term)))
}

const queries = [
  "If-None-Match",
  "speed of sound",
  "session cookie",
  "rate limit",
  "cursor",
  "batch",
  "etag",
  "verify email",
  "highlights",
  "tokens",
  "last owner",
  "Retry-After",
  "wheat starch paste",
  "stale version",
  "MCP Inspector",
  "invitation expired",
  "schemaVersion",
  "brotli",
  "media fragment",
  "DNS rebinding"
]

describe("search_docs snippets", () => {
  it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "100000" }))((it) => {
    it.effect("every snippet holds a word of the query", () =>
      Effect.gen(function* () {
        let hits = 0
        for (const query of queries) {
          const terms = contentTerms(query)
          for (const hit of yield* searchDocs(query)) {
            hits++
            expect(termsIn(hit.snippet, terms), `"${query}" in ${hit.path}: ${hit.snippet}`).not.toEqual([])
          }
        }
        expect(hits).toBeGreaterThan(40)
      })
    )

    it.effect("where the words of a query meet in a paragraph, the snippet shows them together", () =>
      Effect.gen(function* () {
        const together: ReadonlyArray<readonly [query: string, path: string]> = [
          ["speed of sound", "mcp.md"],
          ["session cookie", "foundation-api.md"],
          ["wheat starch paste", "catalog-api.md"],
          ["stale version", "foundation-api.md"],
          ["last owner", "foundation-api.md"],
          ["DNS rebinding", "mcp.md"]
        ]
        for (const [query, path] of together) {
          const hit = (yield* searchDocs(query)).find((candidate) => candidate.path === path)
          expect(hit, `"${query}" finds ${path}`).toBeDefined()
          const terms = contentTerms(query)
          expect(termsIn(hit?.snippet ?? "", terms), `"${query}" in ${path}: ${hit?.snippet}`).toEqual(terms)
        }
      })
    )
  })
})

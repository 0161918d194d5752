// The sandbox guidance built from the loaded snapshot, so every example names a real episode and
// works as written; rendered as JSON or as a small HTML page.
import * as Schema from "effect/Schema"
import { type PreparedResponse, prepareJson, variant } from "../../http/PreparedResponse.js"
import type { CatalogService } from "../Catalog.js"
import {
  maxBatchBodyBytes,
  maxBatchRequests,
  maxCharactersBounds,
  maxSearchResults,
  pageSizeBounds
} from "../CatalogLimits.js"
import { tokenize } from "../SearchOptions.js"
import { Sandbox, SandboxLimits, SandboxRoute } from "./Sandbox.js"

const sandboxCache = "public, max-age=300"

export const makeSandbox = (catalog: CatalogService, rateLimitPerMinute: number): Sandbox => {
  const base = catalog.origin
  const episode = catalog.episodes.find((e) => e.transcriptAvailable) ?? catalog.episodes[0]
  const slug = episode?.slug ?? "1"
  const word = tokenize(episode?.title ?? "").find((term) => term.length > 3) ?? "episode"
  const route = (method: string, path: string, description: string, example: string) =>
    new SandboxRoute({ method, path, description, example })
  return new Sandbox({
    service: "Podcast catalog",
    baseUrl: base,
    snapshot: { id: catalog.manifest.id, builtAt: catalog.manifest.builtAt },
    routes: [
      route(
        "GET",
        "/health",
        "Whether the service is up and which snapshot it serves.",
        `curl ${base}/health`
      ),
      route(
        "GET",
        "/v1/episodes",
        "Newest episodes first; with q, ranked by relevance.",
        `curl '${base}/v1/episodes?q=${word}&limit=3'`
      ),
      route("GET", "/v1/episodes/{slug}", "One episode.", `curl ${base}/v1/episodes/${slug}`),
      route(
        "GET",
        "/v1/transcripts/search",
        "Paragraphs of transcripts that hold every word of q.",
        `curl '${base}/v1/transcripts/search?q=${word}&limit=3'`
      ),
      route(
        "GET",
        "/v1/transcripts/{slug}",
        "The complete transcript of one episode (404 when it has none).",
        `curl ${base}/v1/transcripts/${slug}`
      ),
      route("GET", "/v1/snapshot", "The manifest of the static snapshot.", `curl ${base}/v1/snapshot`),
      route(
        "GET",
        "/snapshot/{path}",
        "A file of the snapshot, immutable.",
        `curl ${base}/snapshot/${catalog.manifest.episodes[slug] ?? ""}`
      ),
      route(
        "POST",
        "/v1/batch",
        `Up to ${maxBatchRequests} GET paths under /v1 in one call.`,
        `curl -X POST ${base}/v1/batch -H 'content-type: application/json' -d '{"requests":[{"id":"a","path":"/v1/episodes/${slug}"}]}'`
      ),
      route("GET", "/openapi.json", "The OpenAPI 3.1 document of this API.", `curl ${base}/openapi.json`),
      route("GET", "/docs", "The interactive API reference.", `${base}/docs`),
      route(
        "GET",
        "/ask",
        "A question in plain words, answered from the catalog with citations.",
        `curl '${base}/ask?q=${word}'`
      ),
      route(
        "POST",
        "/mcp",
        "The MCP server (Streamable HTTP) with four read-only tools.",
        `npx @modelcontextprotocol/inspector --cli ${base}/mcp --transport http --method tools/list`
      ),
      route(
        "POST",
        "/mcp/docs",
        "The documentation MCP server.",
        `npx @modelcontextprotocol/inspector --cli ${base}/mcp/docs --transport http --method tools/list`
      ),
      route(
        "POST",
        "/rpc",
        "Effect RPC for TypeScript services (JSON serialization).",
        "Typed client: the package @podcast-platform/catalog-client (packages/catalog-client in the repository)."
      )
    ],
    limits: new SandboxLimits({
      pageSize: pageSizeBounds,
      batchRequests: maxBatchRequests,
      batchBodyBytes: maxBatchBodyBytes,
      rateLimitPerMinute,
      maxTranscriptCharactersMcp: maxCharactersBounds.maximum,
      searchResults: maxSearchResults
    }),
    conditionalRequests: [
      "Every 200 carries a strong ETag; keep it with the body.",
      `Save it and send it back: curl -s -o episode.json --etag-save episode.etag ${base}/v1/episodes/${slug}, then curl -s -o episode.json --etag-compare episode.etag -w '%{http_code}\\n' ${base}/v1/episodes/${slug} prints 304 (no body) while it still matches.`,
      "If-None-Match takes a list of tags, W/ or not, compared weakly; or * alone (RFC 9110): a list holding * is not *, and answers 200 unless one of its tags matches.",
      "Each content coding (identity, gzip, br) has its own ETag; send Accept-Encoding consistently.",
      "Details may be reused for 5 minutes, lists and searches for 1 minute, snapshot files forever."
    ],
    safety: [
      "Everything here is read-only: no call changes any data.",
      "Prefer small limits and revalidate with If-None-Match instead of downloading again.",
      `Beyond ${rateLimitPerMinute} requests a minute per address the answer is 429 with Retry-After.`,
      "Errors share one envelope: { defined, code, status, message, data? }."
    ]
  })
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

export const sandboxHtml = (sandbox: Sandbox): string => {
  const rows = sandbox.routes
    .map(
      (r) =>
        `<tr><td><code>${r.method}</code></td><td><code>${escapeHtml(r.path)}</code></td><td>${escapeHtml(r.description)}</td><td><pre>${escapeHtml(r.example)}</pre></td></tr>`
    )
    .join("\n")
  const list = (items: ReadonlyArray<string>) =>
    items.map((item) => `<li>${escapeHtml(item)}</li>`).join("\n")
  const l = sandbox.limits
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox: ${escapeHtml(sandbox.service)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;line-height:1.5}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}pre{margin:0;white-space:pre-wrap;word-break:break-all}</style>
</head>
<body>
<h1>Sandbox: safe test calls</h1>
<p>Base URL <code>${escapeHtml(sandbox.baseUrl)}</code>, snapshot <code>${escapeHtml(sandbox.snapshot.id.slice(0, 16))}</code> built ${escapeHtml(sandbox.snapshot.builtAt)}.</p>
<h2>Routes</h2>
<table><thead><tr><th>Method</th><th>Path</th><th>What it does</th><th>Example</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Limits</h2>
<ul>
<li>Page size ${l.pageSize.minimum}–${l.pageSize.maximum}, default ${l.pageSize.default}; searches rank at most ${l.searchResults} results.</li>
<li>Batch: at most ${l.batchRequests} requests and ${l.batchBodyBytes} bytes of body.</li>
<li>${l.rateLimitPerMinute} requests a minute per client address.</li>
<li>MCP <code>get_transcript</code>: at most ${l.maxTranscriptCharactersMcp} characters.</li>
</ul>
<h2>Conditional requests</h2>
<ul>${list(sandbox.conditionalRequests)}</ul>
<h2>Safety</h2>
<ul>${list(sandbox.safety)}</ul>
</body>
</html>
`
}

export const sandboxResponses = (
  sandbox: Sandbox
): { readonly json: PreparedResponse; readonly html: PreparedResponse } => {
  const html = Buffer.from(sandboxHtml(sandbox), "utf8")
  return {
    json: {
      ...prepareJson(JSON.stringify(Schema.encodeSync(Sandbox)(sandbox)), sandboxCache),
      vary: ["Accept"]
    },
    html: {
      contentType: "text/html; charset=utf-8",
      cacheControl: sandboxCache,
      vary: ["Accept"],
      variants: { identity: variant(html) }
    }
  }
}

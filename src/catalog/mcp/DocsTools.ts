// The documentation MCP server's content (`/mcp/docs`, catalog-extensions §7): `search_docs` and
// `get_doc` over the Markdown pages of content/docs that the build step put in the snapshot, and
// the same pages as resources.
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { NotFound } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import { maxDocHits, maxDocPathLength } from "../CatalogLimits.js"
import { SearchText } from "../CatalogRequests.js"
import { DocPage } from "../domain/DocPage.js"
import { requestOf } from "../RequestStruct.js"
import type { SearchService } from "../Search.js"
import { makeTool } from "./McpTool.js"
import type { McpResource } from "./ToolServer.js"

/** Every page is also a resource at this URI. */
export const docUri = (path: string) => `docs://catalog/${path}`

export class DocSearchHit extends Schema.Class<DocSearchHit>("DocSearchHit")({
  path: DocPage.fields.path,
  title: DocPage.fields.title,
  /** The page as a resource (resources/read). */
  uri: Schema.String,
  /** The passage of the page that holds most of the query. */
  snippet: Schema.String,
  relevance: Schema.Number
}) {}

export class DocSearchResult extends Schema.Class<DocSearchResult>("DocSearchResult")({
  data: Schema.Array(DocSearchHit)
}) {}

const DocSearchRequest = requestOf(
  { query: SearchText.annotations({ description: "Words to look for in the documentation." }) },
  "Search the documentation."
)

const DocRequest = requestOf(
  {
    path: Schema.String.pipe(Schema.maxLength(maxDocPathLength)).annotations({
      description: "A page's file name, as search_docs and resources/list give it, e.g. getting-started.md.",
      examples: ["getting-started.md"]
    })
  },
  "One documentation page by its file name."
)

export const docsTools = (catalog: CatalogService, search: SearchService) => {
  const byPath = new Map(catalog.docs.map((page) => [page.path, page]))
  const paths = catalog.docs.map((page) => page.path).join(", ")
  return [
    makeTool({
      name: "search_docs",
      title: "Search the documentation",
      description:
        "Search the service's documentation (getting started, the REST API, conditional requests, MCP, RPC and ask), " +
        "best match first, with a snippet of the passage that matches. Open a page with get_doc.",
      input: DocSearchRequest,
      output: DocSearchResult,
      run: ({ query }) =>
        Either.map(
          search.docs(query, maxDocHits),
          (hits) =>
            new DocSearchResult({
              data: hits.map(
                (hit) =>
                  new DocSearchHit({
                    path: hit.page.path,
                    title: hit.page.title,
                    uri: docUri(hit.page.path),
                    snippet: hit.snippet,
                    relevance: hit.relevance
                  })
              )
            })
        ),
      render: (result) =>
        result.data.length === 0
          ? "No documentation page matches."
          : result.data.map((hit) => `- ${hit.path}: ${hit.title}\n  ${hit.snippet}`).join("\n")
    }),
    makeTool({
      name: "get_doc",
      title: "Read a documentation page",
      description: `One documentation page's Markdown by its file name. The pages: ${paths}.`,
      input: DocRequest,
      output: DocPage,
      run: ({ path }) => {
        const page = byPath.get(path)
        return page === undefined
          ? Either.left(
              new NotFound({
                message: `No documentation page has the path "${path}". The pages are: ${paths}.`
              })
            )
          : Either.right(page)
      },
      render: (page) => page.text
    })
  ]
}

/** Every page as a resource, its contents built once. */
export const docsResources = (catalog: CatalogService): ReadonlyArray<McpResource> =>
  catalog.docs.map((page) => ({
    resource: {
      uri: docUri(page.path),
      name: page.path,
      title: page.title,
      mimeType: "text/markdown",
      size: Buffer.byteLength(page.text)
    },
    contents: { contents: [{ uri: docUri(page.path), mimeType: "text/markdown", text: page.text }] }
  }))

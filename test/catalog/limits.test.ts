// The catalog's documentation states the limits the code enforces: every limit written in
// content/docs (Markdown, which cannot import CatalogLimits.ts) is one of the statements below,
// each made from the constants, so changing a limit without its documentation fails here.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { defaultStaticSearchOptions } from "../../build/StaticSearch.js"
import { notesPageSize } from "../../src/agent/NotebookTools.js"
import {
  askLimitBounds,
  batchItemBounds,
  defaultRateLimitPerMinute,
  maxBatchBodyBytes,
  maxBatchRequests,
  maxCharactersBounds,
  maxCursorLength,
  maxDocHits,
  maxDocPathLength,
  maxMcpBodyBytes,
  maxSearchResults,
  maxSearchTextLength,
  maxSnapshotPathLength,
  pageSizeBounds,
  questionLengthBounds,
  sessionBounds
} from "../../src/catalog/CatalogLimits.js"
import { candidateLimit } from "../../src/catalog/search/ParagraphRanking.js"
import { maxShards } from "../../src/catalog/search/StaticSearchLayout.js"
import { noteTextBounds } from "../../src/foundation/Notes/Note.js"

const docs = join(import.meta.dirname, "../../content/docs")

const page = pageSizeBounds
const ask = askLimitBounds
const question = questionLengthBounds
const characters = maxCharactersBounds
const rate = `${defaultRateLimitPerMinute} requests a minute`
const kib = (bytes: number) => `${bytes / 1024} KiB`

/** Each page of the catalog's documentation and the limits it states, word for word. */
const statements: Record<string, ReadonlyArray<string>> = {
  "catalog-api.md": [
    `Up to ${maxBatchRequests} of the GET routes above`,
    `| \`limit\` | integer | no | ${page.minimum}..${page.maximum}, default ${page.default} |`,
    `with 1 to ${maxBatchRequests} requests; each \`id\` is 1 to ${batchItemBounds.maxIdLength} characters`,
    `More than ${maxBatchRequests} requests, or a body over ${kib(maxBatchBodyBytes)}, is 413`,
    `a \`limit\` outside ${page.minimum}..${page.maximum} or not an integer`,
    `${rate} by default (\`CATALOG_RATE_LIMIT\`)`,
    // The table of every limit.
    `| \`limit\` of a page (REST, the MCP search tools, RPC) | ${page.minimum}..${page.maximum}, default ${page.default} | 400 |`,
    `| \`session\` | ${sessionBounds.minimum}..${sessionBounds.maximum} | 400 |`,
    `| \`q\` (REST), \`query\` (MCP, RPC) | at most ${maxSearchTextLength} characters | 400 |`,
    `| \`cursor\` | at most ${maxCursorLength} characters, issued for the same query and snapshot | 400 |`,
    `| Results a search ranks | the best ${maxSearchResults} (the last page of a very broad search ends there) | |`,
    `| \`path\` of \`/snapshot/{path}\` | at most ${maxSnapshotPathLength} characters | 400 |`,
    `| A batch | 1 to ${maxBatchRequests} requests, each \`id\` 1 to ${batchItemBounds.maxIdLength} characters and each \`path\` at most ${batchItemBounds.maxPathLength} characters, a body of at most ${kib(maxBatchBodyBytes)} |`,
    `| An MCP request body | at most ${kib(maxMcpBodyBytes)} | 413 |`,
    `| \`max_characters\` of \`get_transcript\` | ${characters.minimum}..${characters.maximum}, default ${characters.default} | a tool error |`,
    `| \`search_docs\` | at most ${maxDocHits} pages; a \`get_doc\` path of at most ${maxDocPathLength} characters | a tool error |`,
    `| Ask | \`question\` ${question.minimum}..${question.maximum} characters, \`limit\` ${ask.minimum}..${ask.maximum}, default ${ask.default} | 400 |`
  ],
  "conditional-requests.md": [`The default catalog limit is ${rate} per client address`],
  "getting-started.md": [
    `\`limit\` is ${page.minimum} to ${page.maximum} and defaults to ${page.default}`,
    `by default ${rate} (\`CATALOG_RATE_LIMIT\`)`,
    `groups up to ${maxBatchRequests} of them in one request`,
    `${kib(maxBatchBodyBytes)} for a batch`
  ],
  "mcp.md": [
    `\`query?\` (string, ≤ ${maxSearchTextLength})`,
    `\`query\` (string, ≤ ${maxSearchTextLength})`,
    `\`limit?\` (${page.minimum}..${page.maximum}, default ${page.default})`,
    `\`max_characters?\` (${characters.minimum}..${characters.maximum}, default ${characters.default})`,
    `with a larger \`max_characters\` (up to ${characters.maximum})`,
    `\`limit: must be an integer from ${page.minimum} to ${page.maximum}\``,
    `A body that declares more than ${kib(maxMcpBodyBytes)} is 413`,
    `(${noteTextBounds.minimum} to ${noteTextBounds.maximum} characters, on an episode`,
    `\`limit?\` (${notesPageSize.minimum}..${notesPageSize.maximum}, default ${notesPageSize.default})`,
    `${rate} by default (\`CATALOG_RATE_LIMIT\`)`
  ],
  // The operations page: the service's variables and metrics, no catalog limit.
  "observability.md": [],
  "snapshot.md": [
    `(at most ${maxSearchResults}, or ${candidateLimit(1)} with a \`session\` filter), the first ${maxSearchResults} in the session kept`,
    `a power of two, at most ${maxShards}:`,
    `A term in more paragraphs than ${defaultStaticSearchOptions.firstPostings} (all a one-word query reads without a session filter) keeps only its first ${defaultStaticSearchOptions.firstPostings} postings`,
    `lengths left out for terms in more than ${defaultStaticSearchOptions.lengthsUpTo.toLocaleString("en-US")} paragraphs`
  ],
  "rpc-and-ask.md": [
    `\`question\` ${question.minimum}..${question.maximum} characters, \`limit\` ${ask.minimum}..${ask.maximum} (default ${ask.default})`,
    `A question that is empty or longer than ${question.maximum} characters, a \`limit\` outside ${ask.minimum}..${ask.maximum}`,
    `(${rate} per client address by default`,
    `\`limit\` ${page.minimum}..${page.maximum} with a default of ${page.default}`,
    `a question of ${question.minimum}..${question.maximum} characters`,
    `\`limit: must be an integer from ${page.minimum} to ${page.maximum}\``
  ]
}

/** The ways the documentation words a limit: a range, a bound, a default, a size, a rate. */
const limitWording =
  /\d+\s*(?:\.\.|–|to)\s*\d+|≤ \d+|\b(?:[Uu]p to|at most|[Mm]ore than|over|beyond|longer than) \d+|\d+ KiB|\d+ requests a minute|defaults?(?: to| of)? \d+/g

describe("the documented limits", () => {
  for (const [file, stated] of Object.entries(statements)) {
    it(`${file} states each limit as the code enforces it, and no other`, () => {
      let text = readFileSync(join(docs, file), "utf8")
      for (const statement of stated) {
        expect(text, `${file} should say: ${statement}`).toContain(statement)
        text = text.split(statement).join("")
      }
      // What is left must state no limit: one that is not among the statements above is either
      // out of date or new (then add it above, made from CatalogLimits.ts).
      expect(text.match(limitWording) ?? []).toEqual([])
    })
  }

  it("every page of the documentation but the foundation's is checked", () => {
    const pages = readdirSync(docs).filter((name) => name.endsWith(".md") && name !== "foundation-api.md")
    expect(pages.sort()).toEqual(Object.keys(statements).sort())
  })
})

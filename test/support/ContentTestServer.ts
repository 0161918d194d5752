// The real service over a snapshot freshly built from the demo podcast in content/ (feed,
// transcripts and docs, as the repository has them), foundation off: what the agent-facing tests
// (MCP, RPC, ask) run against, since they need real people, topics and documentation.
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type BuildOptions, buildCatalog } from "../../build/BuildCatalog.js"
import type { StaticSearchOptions } from "../../build/StaticSearch.js"
import { tempDir } from "./TempDir.js"
import { testServer } from "./TestServer.js"

const content = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "content")

/** The origin the test service answers from (PUBLIC_ORIGIN): its links start with it. */
export const contentOrigin = "http://catalog.test"

/**
 * Static search thresholds that split the demo's frequent terms as the defaults split a large
 * catalog's: shards keep 40 postings of a term and name its whole list, whole lists of terms in more
 * than 150 paragraphs leave out lengths. What a reader answers is the same; only the files differ.
 */
export const splitFrequentTerms: StaticSearchOptions = { firstPostings: 40, lengthsUpTo: 150 }

/** Builds content/ into a fresh temporary folder, with `options` beyond the defaults. */
export const buildContentSnapshotWith = (options: Partial<BuildOptions> = {}) =>
  Effect.suspend(() => {
    const out = tempDir("content-snapshot-")
    return Effect.as(
      buildCatalog({
        feed: join(content, "feed.xml"),
        docs: join(content, "docs"),
        out,
        sourceDateEpoch: undefined,
        progress: () => {},
        ...options
      }),
      out
    )
  })

/** Builds content/ into a fresh temporary folder. */
export const buildContentSnapshot = buildContentSnapshotWith()

/** The service on a free port over the content snapshot; `settings` are extra environment variables. */
export const contentTestServer = (settings: Record<string, string> = {}) =>
  Layer.unwrapEffect(
    Effect.map(buildContentSnapshot, (directory) =>
      testServer({
        FOUNDATION_ENABLED: "false",
        CATALOG_DIR: directory,
        PUBLIC_ORIGIN: contentOrigin,
        ...settings
      })
    )
  ).pipe(Layer.orDie)

/** The content folder, for tests that compare answers with the sources. */
export const contentDirectory = content

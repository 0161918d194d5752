// The real service over a snapshot built from the demo podcast in content/ (feed, transcripts and
// docs, as the repository has them; once per test run, below), foundation off: what the agent-facing tests
// (MCP, RPC, ask) run against, since they need real people, topics and documentation.
import { createHash } from "node:crypto"
import { existsSync, renameSync } from "node:fs"
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
const buildInto = (options: Partial<BuildOptions>) =>
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

/**
 * content/ built with `options` beyond the defaults, once per test run: about twenty test files
 * serve or read it, and the build is deterministic (BuildCatalog.test.ts proves the same input gives
 * byte-identical output), so the first file to ask builds it into the run's root (TempRoot.ts) and
 * the others use that folder. Tests only read it; one that changes files must copy it first. A
 * folder is moved into place only complete, so a file never sees a half-built one; two files that
 * miss it at once both build, and the second keeps its own copy. Outside a test run (no
 * TEST_TMP_ROOT), or with an `out` of its own, every call builds afresh.
 */
export const buildContentSnapshotWith = (options: Partial<BuildOptions> = {}) =>
  Effect.suspend(() => {
    const root = process.env.TEST_TMP_ROOT
    if (root === undefined || options.out !== undefined) return buildInto(options)
    const digest = createHash("sha256").update(JSON.stringify(options)).digest("hex").slice(0, 12)
    const shared = join(root, `content-snapshot-shared-${digest}`)
    if (existsSync(join(shared, "manifest.json"))) return Effect.succeed(shared)
    return Effect.map(buildInto(options), (built) => {
      try {
        renameSync(built, shared)
        return shared
      } catch (error) {
        // Another file moved its build into place first (ENOTEMPTY or EEXIST): this one stays private.
        const code = (error as NodeJS.ErrnoException).code
        if (code === "ENOTEMPTY" || code === "EEXIST") return built
        throw error
      }
    })
  })

/** content/ built with the defaults (shared by the test run's files, read only). */
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

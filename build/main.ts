// `npm run build:catalog -- [--feed content/feed.xml] [--docs content/docs] [--out dist/catalog]
// [--if-stale]`: compiles the catalog snapshot (it names no origin: links to the API in it are
// relative to its root, and each instance answers with its own PUBLIC_ORIGIN). With --if-stale
// (what `npm start` uses) it builds only when the snapshot is missing or older than its sources:
// the content and the build step's own code.
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const { values } = parseArgs({
  options: {
    feed: { type: "string", default: "content/feed.xml" },
    docs: { type: "string" },
    out: { type: "string" },
    "if-stale": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false }
  },
  strict: true
})

const out = values.out ?? process.env.CATALOG_DIR ?? "dist/catalog"
// The pages describe the service (the docs MCP server serves them), not the podcast, so they go into
// every snapshot, whichever feed it is built from; the summary says where they came from.
const defaultDocs = "content/docs"
const docs = values.docs ?? (existsSync(defaultDocs) ? defaultDocs : undefined)
const epochText = process.env.SOURCE_DATE_EPOCH
const sourceDateEpoch = epochText === undefined || epochText === "" ? undefined : Number(epochText)
if (sourceDateEpoch !== undefined && !Number.isInteger(sourceDateEpoch)) {
  console.error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got "${epochText}"`)
  process.exit(2)
}

/**
 * The newest modification time of the files under a folder, the snapshot itself excepted. Folder
 * times are left out: writing the snapshot next to its sources changes its parent folder's time.
 */
const newestChange = (path: string, skip: string): number => {
  const absolute = resolve(path)
  if (absolute === skip || absolute.startsWith(`${skip}/`) || absolute.startsWith(`${skip}.`)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name), skip)), 0)
}

// The compiler and the snapshot's schemas are sources too: a snapshot written by an older build
// step may not be in the format this server reads.
const here = dirname(fileURLToPath(import.meta.url))
// The search page bundles the snapshot reader's sources.
const compilerSources = [
  here,
  join(here, "..", "src", "catalog"),
  join(here, "..", "packages", "snapshot-reader", "src")
]

const isFresh = (): boolean => {
  const manifest = join(out, "manifest.json")
  if (!existsSync(manifest)) return false
  const skip = resolve(out)
  const sources = [dirname(resolve(values.feed)), ...(docs === undefined ? [] : [docs]), ...compilerSources]
  const newest = Math.max(...sources.map((source) => newestChange(source, skip)))
  return statSync(manifest).mtimeMs >= newest
}

if (values["if-stale"] && process.env.CATALOG_ENABLED === "false") {
  process.exit(0)
}
if (values["if-stale"] && process.env.CATALOG_DIR !== undefined && values.out === undefined) {
  // An explicitly configured snapshot is served as it is; only the default one is built from content/.
  process.exit(0)
}
if (values["if-stale"] && isFresh()) {
  if (!values.quiet) console.error(`catalog: ${out} is up to date`)
  process.exit(0)
}

const progress = (message: string) => {
  if (!values.quiet) console.error(`catalog: ${message}`)
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

// Imported only now: deciding that nothing needs building should not pay for loading the compiler.
const { buildCatalog } = await import("./BuildCatalog.js")
const Effect = await import("effect/Effect")

const program = buildCatalog({ feed: values.feed, docs, out, sourceDateEpoch, progress }).pipe(
  Effect.match({
    onFailure: (error) => {
      console.error(`catalog build failed: ${error.message}`)
      process.exitCode = 1
    },
    onSuccess: (summary) => {
      const lines = [
        `catalog: built ${summary.out} (snapshot ${summary.snapshotId.slice(0, 16)})`,
        `  episodes     ${summary.episodes}`,
        `  transcripts  ${summary.transcripts} (${summary.paragraphs} paragraphs, ${summary.words} words)`,
        docs === undefined
          ? `  docs         none (${defaultDocs} not found; --docs <folder> names the pages)`
          : `  docs         ${summary.docs} pages from ${docs}`,
        `  written      ${summary.files} files, ${megabytes(summary.bytes)} (search index ${megabytes(summary.indexBytes)} uncompressed)`,
        `  static search ${summary.staticSearchFiles} files, ${megabytes(summary.staticSearchBytes)}`,
        `  time         ${(summary.milliseconds / 1000).toFixed(1)} s`
      ]
      if (summary.remoteChaptersSkipped > 0) {
        lines.push(
          `  note         ${summary.remoteChaptersSkipped} remote chapter files were not fetched (the build works offline)`
        )
      }
      console.error(lines.join("\n"))
    }
  })
)

Effect.runPromise(program)

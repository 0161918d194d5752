// The Changelog corpus' snapshot for the tests, built once and kept while what makes it is unchanged.
// Building it (10 M words) is about a minute of CPU, the suite's most expensive single step, and CI
// runs the suite twice (on Node 24, then on the machine's own Node): the second run, and a
// developer's next `npm test`, load the snapshot the first built when the corpus, the compiler's and
// the service's code (build/, src/, packages/snapshot-reader/src/) and the locked dependencies are
// byte for byte the same (a hash of them names it). The runs that reuse it still serve it, read it
// and search it; a snapshot built on one Node and served by another is also how it is deployed.
// TEST_CORPUS_REBUILD=1 builds afresh regardless.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import * as Effect from "effect/Effect"
import { type BuildSummary, buildCatalog } from "../../build/BuildCatalog.js"
import { isRunning } from "../../src/foundation/Database/EmbeddedPostgres.js"
import { corpusDirectory } from "./Corpus.js"

const root = resolve(import.meta.dirname, "../..")
/** Under .tmp/ (not in git), outside the run's temporary root: it must outlive the run. */
const cacheFolder = join(root, ".tmp", "corpus-snapshot")

const filesUnder = (folder: string): Array<string> =>
  readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(path)
      return entry.isFile() ? [path] : []
    })

/** A hash of every input of the build: the corpus, the code and the locked dependencies. */
const inputsKey = (): string => {
  const hash = createHash("sha256")
  const inputs = [
    corpusDirectory,
    join(root, "build"),
    join(root, "src"),
    join(root, "packages", "snapshot-reader", "src"),
    join(root, "package-lock.json")
  ]
  for (const input of inputs) {
    for (const file of existsSync(input) && input.endsWith(".json") ? [input] : filesUnder(input)) {
      hash.update(relative(root, file))
      hash.update("\0")
      hash.update(readFileSync(file))
    }
  }
  return hash.digest("hex").slice(0, 20)
}

export interface CorpusSnapshot {
  /** The snapshot folder. */
  readonly out: string
  readonly summary: BuildSummary
  /** False when this run built it. */
  readonly reused: boolean
}

/** The pid of another live process building the snapshot of `key`, if there is one. */
const otherBuilder = (key: string): number | undefined => {
  if (!existsSync(cacheFolder)) return undefined
  const prefix = `${key}.partial-`
  return readdirSync(cacheFolder)
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length)))
    .find((pid) => Number.isInteger(pid) && pid !== process.pid && isRunning(pid))
}

/**
 * The snapshot of changelog-master.xml: the kept one when its inputs are unchanged, else built now
 * (into a folder of its own, moved into place only once complete, so a run stopped mid-build
 * leaves nothing that looks finished), replacing any kept for other inputs.
 */
const locate: Effect.Effect<CorpusSnapshot> = Effect.gen(function* () {
  const key = inputsKey()
  const folder = join(cacheFolder, key)
  const summaryFile = join(folder, "summary.json")
  const out = join(folder, "snapshot")
  const kept = () =>
    process.env.TEST_CORPUS_REBUILD !== "1" && existsSync(summaryFile)
      ? { out, summary: JSON.parse(readFileSync(summaryFile, "utf8")) as BuildSummary, reused: true }
      : undefined
  // Another process building the same snapshot (.ci/run's head start, prepare-corpus.ts) is waited
  // for, not raced: its partial folder names its pid.
  while (kept() === undefined && process.env.TEST_CORPUS_REBUILD !== "1" && otherBuilder(key) !== undefined) {
    yield* Effect.sleep("1 second")
  }
  const found = kept()
  if (found !== undefined) return found
  rmSync(cacheFolder, { recursive: true, force: true })
  const partial = `${folder}.partial-${process.pid}`
  mkdirSync(partial, { recursive: true })
  const built = yield* buildCatalog({
    feed: join(corpusDirectory, "feeds/changelog-master.xml"),
    docs: undefined,
    out: join(partial, "snapshot"),
    sourceDateEpoch: undefined,
    progress: () => {}
  }).pipe(Effect.orDie)
  const summary: BuildSummary = { ...built, out }
  writeFileSync(join(partial, "summary.json"), JSON.stringify(summary))
  renameSync(partial, folder)
  return { out, summary, reused: false }
})

/** This process's answer, once it has one: the same snapshot for every group that asks. */
let located: CorpusSnapshot | undefined

export const corpusSnapshot: Effect.Effect<CorpusSnapshot> = Effect.suspend(() =>
  located !== undefined
    ? Effect.succeed(located)
    : Effect.tap(locate, (snapshot) => {
        located = snapshot
      })
)

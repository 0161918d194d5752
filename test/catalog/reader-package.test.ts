// The snapshot reader package as a consumer gets it: packed from packages/snapshot-reader (its build
// runs), installed from the tarball into a project of its own with flexsearch as its only
// dependency; a consumer program that opens the demo snapshot and searches type-checks strictly
// against the declarations (checked too: no skipLibCheck, no Node types) through both entries, as
// the README's TypeScript does, a misuse does not, and compiled to JavaScript it runs with plain node, answering what the reader in
// the repository answers.
import { mkdirSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { openSnapshot } from "@podcast-platform/snapshot-reader"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type CommandResult, runCommand } from "../support/Command.js"
import { buildContentSnapshot, contentOrigin } from "../support/ContentTestServer.js"
import { codeBlocksOf } from "../support/MarkdownBlocks.js"
import { type PackedPackage, packAndInstall, typeCheck, typeCheckMisuse } from "../support/PackedPackage.js"

const repository = resolve(import.meta.dirname, "..", "..")
const packageDirectory = join(repository, "packages", "snapshot-reader")
const packageName = "@podcast-platform/snapshot-reader"

/** A consumer's settings: strict, Node's module resolution, a page's globals and no Node types. */
const consumerTsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    // The package's declarations are checked too: they must stand alone.
    skipLibCheck: false,
    outDir: "out"
  },
  include: ["program/*.ts"]
}

/** Opens the snapshot, searches both ways, and prints what it found as JSON. */
const consumerProgram = (snapshot: string) => `import {
  type Episode,
  openSnapshot,
  type SnapshotReader,
  SnapshotReaderError,
  type TranscriptHit
} from "${packageName}"
import { openSnapshot as openInPage } from "${packageName}/browser"

// The page's build has the same API.
const open: typeof openSnapshot = openInPage
void open

const reader: SnapshotReader = await openSnapshot(${JSON.stringify(snapshot)}, { apiOrigin: "${contentOrigin}" })
const episodes = await reader.searchEpisodes({ q: "glaciers", limit: 3 })
const titles: ReadonlyArray<string> = episodes.data.map((episode: Episode) => episode.title)
const hits = await reader.searchTranscripts({ q: "glaciers", session: 1, limit: 2 })
const first: TranscriptHit | undefined = hits.data[0]
const highlight: readonly [number, number] | undefined = first?.highlights[0]
const slug = episodes.data[0]?.slug
const detail = slug === undefined ? undefined : await reader.episode(slug)
let refusal = ""
try {
  await reader.searchTranscripts({ q: " " })
} catch (error) {
  if (error instanceof SnapshotReaderError) refusal = error.message
}
console.log(JSON.stringify({
  titles,
  total: episodes.total,
  nextOffset: episodes.nextOffset,
  snippet: first?.snippet ?? null,
  highlight: highlight ?? null,
  audioAt: first?.links.audioAt ?? null,
  chapters: detail?.chapters.length ?? null,
  refusal
}))
`

/** Wrong uses the declarations must refuse, each on its own line with its error code. */
const misuses = [
  // An option the reader does not have.
  { line: 'await reader.searchEpisodes({ q: "glaciers", page: 2 })', code: "TS2353" },
  // A field an episode does not have.
  { line: '(await reader.searchEpisodes({ q: "glaciers" })).data[0]?.speaker', code: "TS2339" },
  // A transcript search needs its words.
  { line: "await reader.searchTranscripts({ limit: 2 })", code: "TS2345" }
]

interface Consumer extends PackedPackage {
  readonly snapshot: string
  /** The README's TypeScript blocks, type-checked with the program. */
  readonly readmeBlocks: number
  /** tsc over the consumer program and the README's blocks, which it compiled to out/. */
  readonly compiled: CommandResult
}

class ConsumerProject extends Context.Tag("ReaderConsumerProject")<ConsumerProject, Consumer>() {}

const consumerProject = Layer.effect(
  ConsumerProject,
  Effect.gen(function* () {
    const snapshot = yield* buildContentSnapshot
    const packed = yield* packAndInstall(packageDirectory, "reader-consumer")
    const { directory } = packed
    mkdirSync(join(directory, "program"))
    writeFileSync(join(directory, "program", "consumer.ts"), consumerProgram(snapshot))
    // The README's TypeScript, type-checked with the program (not run: it reads example locations).
    const readme = codeBlocksOf(join(packageDirectory, "README.md")).filter(
      (block) => block.language === "ts"
    )
    readme.forEach((block, index) => {
      writeFileSync(join(directory, "program", `readme-${index + 1}.ts`), `${block.lines.join("\n")}\n`)
    })
    writeFileSync(join(directory, "tsconfig.json"), JSON.stringify(consumerTsconfig, null, 2))
    const compiled = yield* typeCheck(directory)
    return { ...packed, snapshot, readmeBlocks: readme.length, compiled }
  })
).pipe(Layer.orDie)

describe("the snapshot reader package in a project of its own", () => {
  it.layer(consumerProject, { timeout: 360_000 })((it) => {
    it.effect("packs the two builds, their declarations and the README, nothing else", () =>
      Effect.gen(function* () {
        const { packedFiles } = yield* ConsumerProject
        expect([...packedFiles].sort()).toEqual([
          "README.md",
          "dist/browser.js",
          "dist/index.d.ts",
          "dist/index.js",
          "dist/types/EpisodeSearch.d.ts",
          "dist/types/Page.d.ts",
          "dist/types/Records.d.ts",
          "dist/types/SnapshotFiles.d.ts",
          "dist/types/SnapshotReader.d.ts",
          "dist/types/SnapshotSource.d.ts",
          "dist/types/TranscriptSearch.d.ts",
          "dist/types/index.d.ts",
          "package.json"
        ])
      })
    )

    it.effect("installs with flexsearch as its only dependency", () =>
      Effect.gen(function* () {
        const { installed } = yield* ConsumerProject
        expect([...installed].sort()).toEqual([packageName, "flexsearch"])
      })
    )

    it.effect(
      "a program that opens a snapshot and searches, and the README's, type-check strictly; misuses do not",
      () =>
        Effect.gen(function* () {
          const { directory, compiled, readmeBlocks } = yield* ConsumerProject
          expect(readmeBlocks).toBeGreaterThanOrEqual(2)
          expect(compiled.stdout + compiled.stderr).toBe("")
          expect(compiled.code).toBe(0)

          const misuse = yield* typeCheckMisuse(
            directory,
            [
              `import { openSnapshot } from "${packageName}"`,
              'const reader = await openSnapshot("catalog")',
              ...misuses.map((misuse) => `${misuse.line};`),
              ""
            ].join("\n")
          )
          expect(misuse.code).not.toBe(0)
          const errors = misuse.stdout.split("\n").filter((line) => line.startsWith("misuse/"))
          expect(
            errors.map((line) => line.replace(/^misuse\/misuse\.ts\((\d+),\d+\): error (TS\d+):.*$/, "$1 $2"))
          ).toEqual(misuses.map((misuse, index) => `${index + 3} ${misuse.code}`))
        }),
      { timeout: 120_000 }
    )

    it.effect("compiled, the program runs with node and answers as the reader in the repository does", () =>
      Effect.gen(function* () {
        const { directory, snapshot } = yield* ConsumerProject
        const run = yield* runCommand(process.execPath, [join("out", "consumer.js")], {
          cwd: directory,
          timeoutMs: 60_000
        })
        expect(run.stderr).toBe("")
        expect(run.code).toBe(0)
        const printed = JSON.parse(run.stdout)

        const reader = yield* Effect.promise(() => openSnapshot(snapshot, { apiOrigin: contentOrigin }))
        const episodes = yield* Effect.promise(() => reader.searchEpisodes({ q: "glaciers", limit: 3 }))
        const hits = yield* Effect.promise(() =>
          reader.searchTranscripts({ q: "glaciers", session: 1, limit: 2 })
        )
        const detail = yield* Effect.promise(() => reader.episode(episodes.data[0]?.slug ?? ""))
        expect(episodes.data.length).toBeGreaterThan(0)
        expect(hits.data.length).toBeGreaterThan(0)
        expect(printed).toEqual({
          titles: episodes.data.map((episode) => episode.title),
          total: episodes.total,
          nextOffset: episodes.nextOffset,
          snippet: hits.data[0]?.snippet,
          highlight: hits.data[0]?.highlights[0],
          audioAt: hits.data[0]?.links.audioAt,
          chapters: detail?.chapters.length,
          refusal: expect.stringMatching(/word/)
        })
        expect(printed.audioAt).toMatch(/^https?:\/\//)
      })
    )
  })
})

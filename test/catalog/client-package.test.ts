// The client package as a consumer gets it: packed from packages/catalog-client (its build runs),
// installed from the tarball into a project of its own (offline when npm's cache has what it needs),
// which then holds the client and its peers' dependencies and nothing of the server; the TypeScript
// examples of rpc-and-ask.md type-check there without Node's types, a misuse does not, and
// compiled to JavaScript they run with plain node against the service, printing what the page says
// they print.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { EpisodePage } from "../../src/catalog/domain/Collections.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { type CommandResult, runCommand } from "../support/Command.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { codeBlocksOf } from "../support/MarkdownBlocks.js"
import { type PackedPackage, packAndInstall, typeCheck, typeCheckMisuse } from "../support/PackedPackage.js"
import { request } from "../support/TestServer.js"

const repository = resolve(import.meta.dirname, "..", "..")
const packageDirectory = join(repository, "packages", "catalog-client")
const packageName = "@podcast-platform/catalog-client"
const documentedAddress = "http://127.0.0.1:8080"

/** The TypeScript examples a reader copies: every `ts` block of these pages. */
const examplePages = ["content/docs/rpc-and-ask.md"]

/** A consumer's settings: strict, Node's module resolution, and no Node types (`types: []`). */
const consumerTsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    outDir: "out"
  },
  include: ["examples/*.ts"]
}

interface Consumer extends PackedPackage {
  /** The example files written into the project (named by page and block). */
  readonly examples: ReadonlyArray<{ readonly file: string; readonly source: string }>
  /** tsc over the examples, which it compiled to out/ (one run for the two tests that need it). */
  readonly compiled: CommandResult
}

class ConsumerProject extends Context.Tag("ConsumerProject")<ConsumerProject, Consumer>() {}

/** Packs the package, then installs the tarball into a new project with the documents' examples. */
const consumerProject = Layer.effect(
  ConsumerProject,
  Effect.gen(function* () {
    const packed = yield* packAndInstall(packageDirectory, "catalog-consumer")
    const { directory } = packed
    mkdirSync(join(directory, "examples"), { recursive: true })
    const address = yield* ServerAddress
    const examples = examplePages.flatMap((page) =>
      codeBlocksOf(join(repository, page))
        .filter((block) => block.language === "ts")
        .map((block, index) => {
          const file = `${page.replace(/\W+/g, "-")}-${index + 1}.ts`
          const source = block.lines.join("\n").replaceAll(documentedAddress, address.url)
          writeFileSync(join(directory, "examples", file), source)
          return { file, source }
        })
    )
    writeFileSync(join(directory, "tsconfig.json"), JSON.stringify(consumerTsconfig, null, 2))
    const compiled = yield* typeCheck(directory)
    return { ...packed, examples, compiled }
  })
)

/** The names the repository's lock reaches from `start` through dependencies, optional and peer. */
const dependencyClosure = (start: ReadonlyArray<string>): Set<string> => {
  const lock = JSON.parse(readFileSync(join(repository, "package-lock.json"), "utf8")) as {
    packages: Record<string, Record<string, Record<string, string> | undefined>>
  }
  const entries = Object.entries(lock.packages)
  const seen = new Set<string>()
  const pending = [...start]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue
    seen.add(name)
    // Every copy of the package in the lock (hoisted or nested), since a consumer may get either.
    for (const [key, entry] of entries) {
      if (!key.endsWith(`node_modules/${name}`)) continue
      for (const field of ["dependencies", "optionalDependencies", "peerDependencies"]) {
        pending.push(...Object.keys(entry[field] ?? {}))
      }
    }
  }
  return seen
}

const serverOnly = [
  "@electric-sql/pglite",
  "@electric-sql/pglite-socket",
  "pg",
  "@effect/sql",
  "@effect/sql-pg",
  "@effect/platform-node",
  "@modelcontextprotocol/sdk",
  "flexsearch",
  "saxes",
  "lru-cache",
  "esbuild",
  "tsx"
]

describe("the client package in a project of its own", () => {
  it.layer(Layer.provideMerge(consumerProject, contentTestServer()), { timeout: 360_000 })((it) => {
    it.effect("packs one ES module importing only effect and @effect/*, with the declarations it needs", () =>
      Effect.gen(function* () {
        const { packedFiles } = yield* ConsumerProject
        expect(packedFiles).toContain("dist/index.js")
        expect(packedFiles).toContain("dist/index.d.ts")
        expect(packedFiles).toContain("dist/types/catalog/rpc/client.d.ts")
        // Server modules the client never needs stay out, even as declarations.
        expect(
          packedFiles.filter((file) => /ErrorResponse|ErrorAnswer|RouteTable|Catalog\.d/.test(file))
        ).toEqual([])
        const bundle = readFileSync(join(packageDirectory, "dist", "index.js"), "utf8")
        const imported = new Set([...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]))
        expect(
          [...imported].filter((name) => !/^(effect|@effect\/(platform|rpc))\//.test(name ?? ""))
        ).toEqual([])
      })
    )

    it.effect("installs with its peers and their dependencies only: nothing of the server", () =>
      Effect.gen(function* () {
        const { installed } = yield* ConsumerProject
        expect(installed).toEqual(
          expect.arrayContaining([packageName, "effect", "@effect/platform", "@effect/rpc"])
        )
        const allowed = dependencyClosure(["effect", "@effect/platform", "@effect/rpc"])
        expect(installed.filter((name) => name !== packageName && !allowed.has(name))).toEqual([])
        expect(installed.filter((name) => serverOnly.includes(name))).toEqual([])
        // The whole service's dependencies are about 170 packages; the client needs a tenth of that.
        expect(installed.length).toBeLessThan(20)
      })
    )

    it.effect(
      "the documented examples type-check without Node's types, and a misuse does not",
      () =>
        Effect.gen(function* () {
          const { directory, examples, compiled } = yield* ConsumerProject
          expect(examples.length).toBeGreaterThanOrEqual(2)
          expect(compiled.stdout + compiled.stderr).toBe("")
          expect(compiled.code).toBe(0)

          const misuse = yield* typeCheckMisuse(
            directory,
            [
              'import * as Effect from "effect/Effect"',
              `import { CatalogClient } from "${packageName}"`,
              "export const wrong = Effect.flatMap(CatalogClient, (catalog) => catalog.SearchEpisodes({ query: 3 }))",
              ""
            ].join("\n")
          )
          expect(misuse.code).not.toBe(0)
          expect(misuse.stdout).toContain("misuse/misuse.ts(3,")
          expect(misuse.stdout).toContain("Type 'number' is not assignable to type 'string'")
        }),
      // It runs tsc over the consumer project: well past vitest's default 30 s on a loaded machine.
      { timeout: 120_000 }
    )

    it.effect(
      "compiled, the examples run with node and print the episodes, the answer and the miss",
      () =>
        Effect.gen(function* () {
          const { directory, examples, compiled } = yield* ConsumerProject
          expect(compiled.code).toBe(0)
          const page = (yield* request("/v1/episodes?q=lighthouse&limit=3"))
            .json as typeof EpisodePage.Encoded
          expect(page.data.length).toBeGreaterThan(0)
          for (const example of examples) {
            const run = yield* runCommand(
              process.execPath,
              [join("out", example.file.replace(/\.ts$/, ".js"))],
              { cwd: directory, timeoutMs: 60_000 }
            )
            expect(run.stderr, example.file).toBe("")
            expect(run.code, example.file).toBe(0)
            for (const episode of page.data) expect(run.stdout, example.file).toContain(episode.title)
            if (example.source.includes('"9999"')) {
              expect(run.stdout, example.file).toContain('No episode has the slug "9999".')
            }
          }
        }),
      // Each example starts node: more than the default on a loaded machine.
      { timeout: 120_000 }
    )
  })
})

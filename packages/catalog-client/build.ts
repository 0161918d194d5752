// Builds the client package from the service's own sources, so the procedures, schemas and errors
// are defined once (in src/): esbuild bundles src/catalog/rpc/client.ts and what it imports into one
// ES module that leaves effect and @effect/* as imports (the consumer's copies, the package's peer
// dependencies), and tsc writes the declarations, of which only those the entry reaches are kept.
// Run by `npm pack` (prepack) and `npm run build -w @podcast-platform/catalog-client`.
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import ts from "typescript"

const here = dirname(fileURLToPath(import.meta.url))
const repository = resolve(here, "..", "..")
const sources = join(repository, "src")
const entry = join(sources, "catalog", "rpc", "client.ts")
const dist = join(here, "dist")
const types = join(dist, "types")

rmSync(dist, { recursive: true, force: true })

await build({
  entryPoints: [entry],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  packages: "external",
  outfile: join(dist, "index.js"),
  banner: { js: "// @podcast-platform/catalog-client, built from src/catalog/rpc/client.ts: do not edit." },
  logLevel: "warning"
})

/** The declarations of every source file the entry imports, by output path, checked first. */
const emitDeclarations = (): Map<string, string> => {
  const configFile = join(repository, "tsconfig.json")
  const config = ts.readConfigFile(configFile, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repository)
  const program = ts.createProgram([entry], {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: sources,
    outDir: types,
    plugins: []
  })
  const outputs = new Map<string, string>()
  const result = program.emit(undefined, (file, text) => outputs.set(resolve(file), text), undefined, true)
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics]
  if (diagnostics.length > 0) {
    const host = {
      getCanonicalFileName: (name: string) => name,
      getCurrentDirectory: () => repository,
      getNewLine: () => "\n"
    }
    throw new Error(ts.formatDiagnostics(diagnostics, host))
  }
  return outputs
}

// Relative module specifiers of a declaration file: `from "./x.js"`, `import("../y.js")`.
const relativeSpecifier = /(?:from\s+|import\s*\(\s*)"(\.{1,2}\/[^"]+)\.js"/g

/**
 * The declarations reachable from the entry's: the server-side modules the bundle never includes
 * (error rendering, routing) are emitted too, but a consumer must not see them.
 */
const reachable = (outputs: ReadonlyMap<string, string>, start: string): Set<string> => {
  const seen = new Set<string>()
  const pending = [start]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue
    const text = outputs.get(file)
    if (text === undefined) throw new Error(`no declarations for ${relative(repository, file)}`)
    seen.add(file)
    for (const match of text.matchAll(relativeSpecifier)) {
      pending.push(resolve(dirname(file), `${match[1]}.d.ts`))
    }
  }
  return seen
}

const outputs = emitDeclarations()
const entryDeclarations = join(types, relative(sources, entry).replace(/\.ts$/, ".d.ts"))
for (const file of reachable(outputs, entryDeclarations)) {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, outputs.get(file) ?? "")
}
const entryModule = `./${relative(dist, entryDeclarations).replace(/\.d\.ts$/, ".js")}`
writeFileSync(join(dist, "index.d.ts"), `export * from "${entryModule}"\n`)

// Builds the client package from the service's own sources, so the procedures, schemas and errors
// are defined once (in src/): esbuild bundles src/catalog/rpc/client.ts and what it imports into one
// ES module that leaves effect and @effect/* as imports (the consumer's copies, the package's peer
// dependencies), and ../Declarations.ts writes the declarations the entry reaches.
// Run by `npm pack` (prepack) and `npm run build -w @podcast-platform/catalog-client`.
import { rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { writeDeclarations } from "../Declarations.js"

const here = dirname(fileURLToPath(import.meta.url))
const repository = resolve(here, "..", "..")
const sources = join(repository, "src")
const entry = join(sources, "catalog", "rpc", "client.ts")
const dist = join(here, "dist")

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

writeDeclarations({
  entry,
  rootDir: sources,
  dist,
  dependencies: ["effect", "@effect/platform", "@effect/rpc"]
})

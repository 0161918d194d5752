// Builds the reader from its sources and the service's own search code (src/catalog/search, the
// shared options in src/catalog/SearchOptions.ts), so both run the same code: `dist/index.js`, an ES
// module for Node and bundlers that imports flexsearch (the package's dependency), and
// `dist/browser.js`, one self-contained ES module (flexsearch inside) that a page loads with
// `<script type="module">` and no bundler; both typed by `dist/index.d.ts` (../Declarations.ts, with
// the answers' types written out in full, so the declarations import nothing but each other). Run by
// `npm pack` (prepack) and `npm run build -w @podcast-platform/snapshot-reader`.
import { rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { writeDeclarations } from "../Declarations.js"
import { bundleReader } from "./bundle.js"

const here = dirname(fileURLToPath(import.meta.url))
const dist = join(here, "dist")
const sources = join(here, "src")
rmSync(dist, { recursive: true, force: true })
await bundleReader(join(dist, "index.js"), "node")
await bundleReader(join(dist, "browser.js"), "browser")
writeDeclarations({
  entry: join(sources, "index.ts"),
  rootDir: sources,
  dist,
  dependencies: [],
  standalone: [join(sources, "Records.ts")]
})

// Builds the reader from its sources and the service's own search code (src/catalog/search, the
// shared options in src/catalog/SearchOptions.ts), so both run the same code: `dist/index.js`, an ES
// module for Node and bundlers that imports flexsearch (the package's dependency), and
// `dist/browser.js`, one self-contained ES module (flexsearch inside) that a page loads with
// `<script type="module">` and no bundler. Run by `npm pack` (prepack) and
// `npm run build -w @podcast-platform/snapshot-reader`.
import { rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { bundleReader } from "./bundle.js"

const dist = join(dirname(fileURLToPath(import.meta.url)), "dist")
rmSync(dist, { recursive: true, force: true })
await bundleReader(join(dist, "index.js"), "node")
await bundleReader(join(dist, "browser.js"), "browser")

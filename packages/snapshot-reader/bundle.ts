// The reader bundled with esbuild from packages/snapshot-reader/src/index.ts and the shared sources
// it imports. "node": flexsearch stays an import (the consumer's copy). "browser": everything in one
// minified ES module; only the folder source's `node:` imports stay, loaded if a folder is read. The
// catalog build bundles the browser build the same way into the snapshot's search page.
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type BuildOptions, build } from "esbuild"

const entry = join(dirname(fileURLToPath(import.meta.url)), "src", "index.ts")

/** esbuild's options for the reader's build for `target`. */
export const readerBundleOptions = (target: "node" | "browser"): BuildOptions => ({
  entryPoints: [entry],
  bundle: true,
  format: "esm",
  platform: target === "node" ? "neutral" : "browser",
  target: "es2022",
  minify: target === "browser",
  ...(target === "node" ? { packages: "external" as const } : { external: ["node:*"] }),
  banner: { js: "// @podcast-platform/snapshot-reader, built from packages/snapshot-reader: do not edit." },
  logLevel: "warning"
})

export const bundleReader = (outfile: string, target: "node" | "browser") =>
  build({ ...readerBundleOptions(target), outfile })

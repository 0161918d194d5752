// The reader bundled with esbuild from packages/snapshot-reader/src/index.ts and the shared sources
// it imports. "node": flexsearch stays an import (the consumer's copy). "browser": everything in one
// minified ES module; only the folder source's `node:` imports stay, loaded if a folder is read.
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const entry = join(dirname(fileURLToPath(import.meta.url)), "src", "index.ts")

export const bundleReader = (outfile: string, target: "node" | "browser") =>
  build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: target === "node" ? "neutral" : "browser",
    target: "es2022",
    minify: target === "browser",
    ...(target === "node" ? { packages: "external" as const } : { external: ["node:*"] }),
    outfile,
    banner: { js: "// @podcast-platform/snapshot-reader, built from packages/snapshot-reader: do not edit." },
    logLevel: "warning"
  })

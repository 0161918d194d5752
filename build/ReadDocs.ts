// The service's documentation for the docs MCP server: every Markdown page of a folder, in name
// order, titled by its first heading.
import { readdir } from "node:fs/promises"
import { basename, join } from "node:path"
import * as Effect from "effect/Effect"
import { DocPage } from "../src/catalog/domain/DocPage.js"
import { BuildError } from "./BuildError.js"
import { readText } from "./SourceFiles.js"

export const readDocs = Effect.fn("Build.readDocs")(function* (folder: string) {
  const names = yield* Effect.tryPromise({
    try: () => readdir(folder),
    catch: (error) =>
      new BuildError({ file: folder, reason: `cannot read the docs folder: ${String(error)}` })
  })
  return yield* Effect.forEach(
    names.filter((name) => name.endsWith(".md")).sort(),
    (name) =>
      Effect.map(readText(join(folder, name), { what: "a documentation page" }), (text) => {
        const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? basename(name, ".md")
        return new DocPage({ path: name, title, text })
      }),
    { concurrency: 8 }
  )
})

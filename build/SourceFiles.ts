// How the build reads its inputs: text files as BuildErrors naming the file when they cannot be
// read, and the local file a feed link names (the build works offline, relative to the feed).
import { readFile } from "node:fs/promises"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import { BuildError } from "./BuildError.js"

export const readText = (file: string, context: { readonly item?: string; readonly what: string }) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) =>
      new BuildError({
        file,
        item: context.item,
        reason: `cannot read ${context.what}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error)}`
      })
  })

/** The local file a feed link names: relative to the feed's folder, or a file: URL. */
export const localPath = (feedFile: string, url: string): string | undefined => {
  if (url.startsWith("file:")) return fileURLToPath(url)
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined
  return resolve(dirname(feedFile), decodeURIComponent(url.split(/[?#]/)[0] ?? url))
}

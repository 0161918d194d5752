// Where the Changelog corpus is read from (../shared/corpus next to the repository, CC BY-SA 4.0),
// and why the corpus test skips when it is not there.
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"

export const corpusDirectory = resolve(import.meta.dirname, "../../../shared/corpus/changelog")

/** Why the corpus test cannot run here, or undefined when it can. */
export const corpusUnavailable: string | undefined = existsSync(join(corpusDirectory, "stats.json"))
  ? undefined
  : `the Changelog corpus: no ${join(corpusDirectory, "stats.json")} (the shared corpus, checked out next to the repository)`

// The prebuilt FlexSearch indexes imported from the snapshot's exported chunks, into indexes made
// with the options the build step used (SearchOptions.ts). The transcript index is the largest
// part of a snapshot: it is imported at the first search that needs it or by the warm-up after
// start-up, whichever comes first, so start-up does not wait for it.
import type { SnapshotManifest } from "../domain/Manifest.js"
import {
  type DocIndex,
  type EpisodeIndex,
  makeDocIndex,
  makeEpisodeIndex,
  makeParagraphIndex,
  type ParagraphIndex
} from "../SearchOptions.js"
import type { VerifiedFiles } from "./VerifiedFiles.js"

export interface SearchIndexes {
  readonly episodes: EpisodeIndex
  /** Imported on first use. */
  readonly paragraphs: ParagraphIndex
  readonly docs: DocIndex
}

export const importSearchIndexes = (manifest: SnapshotManifest, files: VerifiedFiles): SearchIndexes => {
  const importIndex = <I extends { import: (key: string, data: string) => unknown }>(
    index: I,
    chunks: ReadonlyArray<readonly [string, string]>
  ): I => {
    for (const [key, path] of chunks) index.import(key, files.file(path).toString("utf8"))
    return index
  }
  let paragraphs: ParagraphIndex | undefined
  const episodes = importIndex(makeEpisodeIndex(), manifest.indexes.episodes)
  return {
    episodes,
    get paragraphs() {
      paragraphs ??= importIndex(makeParagraphIndex(), manifest.indexes.paragraphs)
      return paragraphs
    },
    docs: importIndex(makeDocIndex(), manifest.indexes.docs)
  }
}

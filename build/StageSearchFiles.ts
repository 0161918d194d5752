// The snapshot's collections and search files staged: the exported index chunks, every episode
// newest first, the search statistics and the documentation, each a content-hashed JSON file.
import { DocCollection, type DocPage } from "../src/catalog/domain/DocPage.js"
import type { Episode } from "../src/catalog/domain/Episode.js"
import { SnapshotCollections, SnapshotIndexes } from "../src/catalog/domain/Manifest.js"
import { EpisodeCollection, SearchData } from "../src/catalog/domain/SearchData.js"
import { encodeJson } from "./EncodeJson.js"
import type { BuiltIndexes, ExportedIndex } from "./Indexes.js"
import type { StagedSnapshot } from "./SnapshotWriter.js"

export interface StagedSearchFiles {
  readonly indexes: SnapshotIndexes
  readonly collections: SnapshotCollections
}

export const stageSearchFiles = (
  staged: StagedSnapshot,
  indexes: BuiltIndexes,
  episodes: ReadonlyArray<Episode>,
  docs: ReadonlyArray<DocPage>
): StagedSearchFiles => {
  const addIndex = (name: string, chunks: ExportedIndex) =>
    chunks.map(([key, data]) => [key, staged.addJson("index", `${name}-${key}`, data)] as const)
  return {
    indexes: new SnapshotIndexes({
      episodes: addIndex("episodes", indexes.episodes),
      paragraphs: addIndex("paragraphs", indexes.paragraphs),
      docs: addIndex("docs", indexes.docs)
    }),
    collections: new SnapshotCollections({
      episodes: staged.addJson(
        "catalog",
        "episodes",
        encodeJson(EpisodeCollection, new EpisodeCollection({ data: episodes, schemaVersion: "1" }))
      ),
      searchData: staged.addJson("catalog", "search-data", encodeJson(SearchData, indexes.searchData)),
      docs: staged.addJson(
        "catalog",
        "docs",
        encodeJson(DocCollection, new DocCollection({ data: docs, schemaVersion: "1" }))
      )
    })
  }
}

// @podcast-platform/snapshot-reader: search a podcast catalog snapshot with no server, in browsers
// and Node, with the same answers as the service (content/docs/snapshot.md).
export type { EpisodeSearchQuery } from "./EpisodeSearch.js"
export type { Page, PageQuery } from "./Page.js"
export type { Episode, EpisodeSummary, TranscriptHit } from "./Records.js"
export type { Transferred } from "./SnapshotFiles.js"
export { openSnapshot, type SnapshotReader, type SnapshotReaderOptions } from "./SnapshotReader.js"
export { folderSource, SnapshotReaderError, type SnapshotSource, urlSource } from "./SnapshotSource.js"
export type { TranscriptSearchQuery } from "./TranscriptSearch.js"

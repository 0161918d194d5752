// A snapshot read with no server: from a URL (any static host) or a folder, episode and transcript
// searches answered from the static search files (content/docs/snapshot.md) with the service's own
// search code, so its results, order, snippets and highlights are the service's.

import { withOriginText } from "../../../src/catalog/domain/ApiPaths.js"
import type { SearchEntry } from "../../../src/catalog/domain/StaticSearch.js"
import { searchEntryPath } from "../../../src/catalog/search/StaticSearchLayout.js"
import { type EpisodeSearchQuery, makeEpisodeSearch } from "./EpisodeSearch.js"
import type { Page } from "./Page.js"
import type { Episode, EpisodeSummary, TranscriptHit } from "./Records.js"
import { makeSnapshotFiles, type Transferred } from "./SnapshotFiles.js"
import { SnapshotReaderError, type SnapshotSource, sourceOf } from "./SnapshotSource.js"
import { makeTranscriptSearch, type TranscriptSearchQuery } from "./TranscriptSearch.js"

/** The versions of the format this reader knows. */
const knownFormats: ReadonlyArray<string> = ["1"]

export interface SnapshotReaderOptions {
  /**
   * The origin that links to the API are made absolute on, as a service on that origin answers
   * them (its PUBLIC_ORIGIN); without it they stay relative to the snapshot's root, as in its files.
   */
  readonly apiOrigin?: string | undefined
  /** The fetch that URLs are read with: the global one unless given. */
  readonly fetch?: typeof fetch | undefined
}

export interface SnapshotReader {
  /** Episodes by relevance to `q`, or newest first without it; `session` filters. */
  readonly searchEpisodes: (query: EpisodeSearchQuery) => Promise<Page<Episode>>
  /**
   * The same results as `searchEpisodes`, each as a result list shows it (title, season, number,
   * date, length, subtitle, description, relevance, matched fields): read from the search's
   * description, with no episode file per result.
   */
  readonly searchEpisodeSummaries: (query: EpisodeSearchQuery) => Promise<Page<EpisodeSummary>>
  /**
   * The episode with this slug, as the service answers `GET /v1/episodes/{slug}` (its `data`), or
   * undefined when the snapshot has none: reads the episode's own file.
   */
  readonly episode: (slug: string) => Promise<Episode | undefined>
  /** Transcript paragraphs holding every word of `q`, by relevance; `session` filters. */
  readonly searchTranscripts: (query: TranscriptSearchQuery) => Promise<Page<TranscriptHit>>
  /**
   * Reads the two descriptions every search starts from and prepares what is derived from them, so
   * that the first search reads only its own parts and starts reading at once.
   */
  readonly preload: () => Promise<void>
  /** Files and bytes read so far (the gzip copies, as a static server sends them). */
  readonly transferred: () => Transferred
}

/**
 * Opens the snapshot at `location`: a URL of its root (read with fetch), a folder (Node), or a
 * source of your own. Reads only `search.json`; each search reads what it needs, once.
 */
export const openSnapshot = async (
  location: string | URL | SnapshotSource,
  options: SnapshotReaderOptions = {}
): Promise<SnapshotReader> => {
  const source = sourceOf(location, options.fetch)
  const files = makeSnapshotFiles(source)
  let entry: typeof SearchEntry.Encoded
  try {
    entry = await files.json<typeof SearchEntry.Encoded>(searchEntryPath)
  } catch (error) {
    throw new SnapshotReaderError(
      `${source.name} has no readable ${searchEntryPath} (a snapshot built before its static search files were added must be rebuilt): ${error instanceof Error ? error.message : error}`
    )
  }
  if (!knownFormats.includes(entry.formatVersion)) {
    throw new SnapshotReaderError(
      `${source.name} is in snapshot format ${entry.formatVersion}; this reader knows ${knownFormats.join(", ")}`
    )
  }
  const origin = options.apiOrigin?.replace(/\/+$/, "")
  const link = (path: string) => (origin === undefined ? path : `${origin}/${path}`)
  const withOrigin = (json: string) => (origin === undefined ? json : withOriginText(json, origin))
  const episodes = makeEpisodeSearch(files, entry.episodes, withOrigin)
  const transcripts = makeTranscriptSearch(files, entry.transcripts, link)
  return {
    preload: async () => {
      await Promise.all([files.json(entry.episodes), transcripts.prepare()])
    },
    searchEpisodes: episodes.search,
    searchEpisodeSummaries: episodes.searchSummaries,
    episode: episodes.episode,
    searchTranscripts: transcripts.search,
    transferred: files.transferred
  }
}

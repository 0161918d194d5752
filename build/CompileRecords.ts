// The catalog's records compiled from what the items said: each transcript and episode built with
// its Schema class (a record that breaks the contract stops the build, naming the item) and staged
// as a content-hashed JSON file, in the order the items come (newest first).
import * as Effect from "effect/Effect"
import { type Episode, EpisodeDetail } from "../src/catalog/domain/Episode.js"
import { type Transcript, TranscriptDetail } from "../src/catalog/domain/Transcript.js"
import { BuildError } from "./BuildError.js"
import { encodeJson } from "./EncodeJson.js"
import type { FeedChannel } from "./Feed.js"
import type { ReadItem } from "./ReadItem.js"
import { makeEpisode, makeTranscript } from "./Records.js"
import type { StagedSnapshot } from "./SnapshotWriter.js"

export interface CompiledRecords {
  /** Newest first. */
  readonly episodes: ReadonlyArray<Episode>
  readonly transcripts: ReadonlyArray<Transcript>
  /** Each episode's staged file by slug, for the manifest. */
  readonly episodePaths: Readonly<Record<string, string>>
  /** Each transcript's staged file by slug, for the manifest. */
  readonly transcriptPaths: Readonly<Record<string, string>>
}

export const compileRecords = (
  feedFile: string,
  channel: FeedChannel,
  items: ReadonlyArray<ReadItem>,
  staged: StagedSnapshot
): Effect.Effect<CompiledRecords, BuildError> =>
  Effect.gen(function* () {
    const episodes: Array<Episode> = []
    const transcripts: Array<Transcript> = []
    const episodePaths: Record<string, string> = {}
    const transcriptPaths: Record<string, string> = {}
    for (const { source, transcript } of items) {
      const inItem = { file: feedFile, line: source.item.line, item: source.item.title }
      const built = yield* Effect.try({
        try: () => {
          const record = transcript === undefined ? undefined : makeTranscript(channel, source, transcript)
          const path =
            record === undefined
              ? undefined
              : staged.addJson(
                  "transcripts",
                  record.slug,
                  encodeJson(TranscriptDetail, new TranscriptDetail({ data: record, schemaVersion: "1" }))
                )
          const episode = makeEpisode(channel, source, record && path ? { record, path } : undefined)
          return { record, path, episode }
        },
        catch: (error) =>
          new BuildError({
            ...inItem,
            reason: `invalid episode: ${error instanceof Error ? error.message : String(error)}`
          })
      })
      episodes.push(built.episode)
      episodePaths[built.episode.slug] = staged.addJson(
        "episodes",
        built.episode.slug,
        encodeJson(EpisodeDetail, new EpisodeDetail({ data: built.episode, schemaVersion: "1" }))
      )
      if (built.record && built.path) {
        transcripts.push(built.record)
        transcriptPaths[built.record.slug] = built.path
      }
    }
    return { episodes, transcripts, episodePaths, transcriptPaths }
  })

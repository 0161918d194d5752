// The files one feed item links, read and parsed: its chapters (when local) and its transcript, in
// the most structured of the formats it offers. What is wrong stops the build, naming the file.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Chapter } from "../src/catalog/domain/Episode.js"
import type { TranscriptFormat } from "../src/catalog/domain/Transcript.js"
import { BuildError } from "./BuildError.js"
import { parseChapters } from "./Chapters.js"
import type { FeedChannel, FeedLink } from "./Feed.js"
import type { IdentifiedItem } from "./ReadFeed.js"
import type { EpisodeSource, TranscriptInput } from "./Records.js"
import { localPath, readText } from "./SourceFiles.js"
import { parseTranscript, transcriptFormat } from "./transcripts/TranscriptParser.js"

export interface ReadItem {
  readonly source: EpisodeSource
  readonly transcript: TranscriptInput | undefined
  /** Whether the item's chapters are remote, so not fetched. */
  readonly remoteChapters: boolean
}

/** When an item lists several transcripts, the one with the most structure wins. */
const formatPreference: ReadonlyArray<TranscriptFormat> = ["json", "vtt", "srt", "markdown", "text"]

const chooseTranscript = (links: ReadonlyArray<FeedLink>) => {
  let best: { link: FeedLink; format: TranscriptFormat } | undefined
  for (const link of links) {
    const format = transcriptFormat(link.type, link.url)
    if (format === undefined) continue
    if (best === undefined || formatPreference.indexOf(format) < formatPreference.indexOf(best.format)) {
      best = { link, format }
    }
  }
  return best
}

export const readItem = (
  feedFile: string,
  channel: FeedChannel,
  { item, identity }: IdentifiedItem
): Effect.Effect<ReadItem, BuildError> =>
  Effect.gen(function* () {
    const inItem = { file: feedFile, line: item.line, item: item.title }
    let chapters: ReadonlyArray<Chapter> = []
    let remoteChapters = false
    if (item.chapters !== undefined) {
      const path = localPath(feedFile, item.chapters.url)
      if (path === undefined) {
        // Chapters are optional enrichment and the build works offline: remote ones are counted, not fetched.
        remoteChapters = true
      } else {
        const text = yield* readText(path, { item: item.title, what: "the chapters file" })
        chapters = yield* Either.mapLeft(
          parseChapters(text),
          (reason) => new BuildError({ file: path, item: item.title, reason })
        )
      }
    }
    const chosen = chooseTranscript(item.transcripts)
    if (item.transcripts.length > 0 && chosen === undefined) {
      return yield* new BuildError({
        ...inItem,
        line: item.transcripts[0]?.line,
        reason: `no transcript in a known format (types: ${item.transcripts.map((link) => link.type ?? "none").join(", ")})`
      })
    }
    let transcript: TranscriptInput | undefined
    if (chosen !== undefined) {
      const path = localPath(feedFile, chosen.link.url)
      if (path === undefined) {
        return yield* new BuildError({
          ...inItem,
          line: chosen.link.line,
          reason: `the transcript ${chosen.link.url} is not a local file; the build reads transcripts relative to the feed`
        })
      }
      const text = yield* readText(path, { item: item.title, what: "the transcript" })
      const parsed = yield* Either.mapLeft(
        parseTranscript(chosen.format, text),
        (error) =>
          new BuildError({
            file: path,
            line: error.line,
            item: item.title,
            reason: `${chosen.format} transcript: ${error.message}`
          })
      )
      transcript = {
        parsed,
        sourceUrl: new URL(chosen.link.url, channel.selfUrl ?? channel.link).href,
        language: chosen.link.language ?? channel.language
      }
    }
    return { source: { item, identity, chapters }, transcript, remoteChapters }
  })

// What the ask endpoint answers (catalog-extensions §8): what it recognised in the question, an
// answer in which every sentence ends with a citation marker `[n]` pointing into `citations`
// (extracts for a topic, sentences made from the episode records for a fact about the show), and
// the episodes and transcript hits it was composed from, in their REST shapes. The server-sent
// events carry the same parts, one event each.
import * as Schema from "effect/Schema"
import { documented } from "../../http/OpenApiDocument.js"
import { TranscriptHit } from "../domain/Collections.js"
import { Episode, Person, Slug, Url } from "../domain/Episode.js"

/** The facts about the show that ask answers from the episode records rather than with extracts. */
export const AskFact = Schema.Literal(
  "hosts",
  "guests",
  "appearances",
  "episode",
  "duration",
  "published",
  "episodeCount",
  "seasonCount"
).annotations({
  identifier: "AskFact",
  description:
    "The fact the question asks for: `hosts` and `guests` (of the show, a season or an episode), `appearances` " +
    "(the episodes a named person is in), `episode` (which episode: its title and date), `duration`, " +
    "`published` (when it came out), `episodeCount` (of the show or a season) and `seasonCount`."
})
export type AskFact = typeof AskFact.Type

/** One episode chosen among those the question names: "the latest episode", "the longest one". */
export const EpisodePick = Schema.Literal("first", "latest", "longest", "shortest").annotations({
  identifier: "EpisodePick",
  description:
    "Which one episode of those in question is meant: the first or latest (by publication), the longest or " +
    "shortest; numbered episodes are preferred to the trailer and bonus episodes."
})
export type EpisodePick = typeof EpisodePick.Type

export class AskIntent extends Schema.Class<AskIntent>("AskIntent")({
  /** Episode numbers named in the question ("episode 12", "#12", "episode twelve"). */
  episodeNumbers: Schema.Array(Schema.Int),
  /** Sessions (seasons) named in the question ("season 2", "the second season"). */
  sessions: Schema.Array(Schema.Int),
  /** Hosts and guests of the feed named in the question. */
  people: Schema.Array(Person),
  /** The remaining words worth searching for. */
  topics: Schema.Array(Schema.String),
  /**
   * The fact about the show the question asks for, answered from the episode records; absent for a
   * topic question, which is answered with extracts.
   */
  fact: Schema.optional(AskFact),
  /** The one episode meant among those in question ("the latest episode"); absent when none is picked. */
  pick: Schema.optional(EpisodePick)
}) {}

export class Citation extends Schema.Class<Citation>("Citation")({
  slug: Slug,
  title: Schema.String,
  /** Present when the sentence comes from a transcript paragraph. */
  paragraphIndex: Schema.optional(
    Schema.Int.pipe(
      Schema.nonNegative(),
      documented("Paragraph index", "The cited paragraph's place, from 0: non-negative.")
    )
  ),
  /** Where that paragraph starts in the audio, when the transcript has timings. */
  startSeconds: Schema.optional(
    Schema.Number.pipe(
      Schema.nonNegative(),
      documented("Start", "Seconds from the start of the audio: non-negative.")
    )
  ),
  /** The cited episode or transcript in this API. */
  url: Url
}) {}

/** The answer and its citations: the `answer` event. */
export class AskComposition extends Schema.Class<AskComposition>("AskComposition")({
  /** Sentences from the catalog, each followed by `[n]`, the 1-based index of its citation. */
  answer: Schema.String,
  citations: Schema.Array(Citation)
}) {}

export class AskAnswer extends Schema.Class<AskAnswer>("AskAnswer")({
  question: Schema.String,
  intent: AskIntent,
  answer: Schema.String,
  citations: Schema.Array(Citation),
  episodes: Schema.Array(Episode),
  transcriptHits: Schema.Array(TranscriptHit)
}) {}

/** The `done` event: how many of each part were sent. */
export class AskDone extends Schema.Class<AskDone>("AskDone")({
  episodes: Schema.Int,
  transcriptHits: Schema.Int,
  citations: Schema.Int
}) {}

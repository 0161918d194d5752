// The static search files of a snapshot (catalog-extensions §6, docs/decisions/static-search-index.md):
// FlexSearch's map split by term into shards, with what ranking needs beside each posting, and the
// texts of paragraphs in blocks, so that a reader with no server loads only what a query needs.
// These schemas are the format's definition: the build writes these shapes, the snapshot ships their
// JSON Schemas, and the reader (packages/snapshot-reader) reads their encoded types.
import * as Schema from "effect/Schema"
import { Slug } from "./Episode.js"

const Count = Schema.Int.pipe(Schema.nonNegative())
/** A path relative to the snapshot root. */
const Path = Schema.String.pipe(Schema.pattern(/^[a-z]+(\/[A-Za-z0-9._-]+)+$/))
/**
 * A file name inside a folder of the static search files: a shard or block (`0a3.json`, `12.json`),
 * a whole list (`0a3-0.json`), a head and its lengths (`0a3-0-head.json`, `0a3-0-head-lengths.json`).
 */
const FileName = Schema.String.pipe(Schema.pattern(/^[0-9a-f]+(-[0-9]+(-head(-lengths)?)?)?\.json$/))

/**
 * FlexSearch's slots of one term: `slots[r]` holds the ids with the term at resolution slot `r`
 * (`null` when none), each slot's ids delta-coded (the first id, then the difference from the one
 * before).
 */
export const DeltaSlots = Schema.Array(Schema.NullOr(Schema.Array(Schema.Int))).annotations({
  identifier: "DeltaSlots",
  description:
    "FlexSearch's slots of one term: slots[r] are the ids with the term at resolution slot r (null when none), delta-coded within a slot."
})

/** Where the shards of one index are. */
export const ShardFolder = Schema.Struct({
  /** The folder: its name ends with a hash of everything in it. */
  folder: Path,
  /** How many shards: a term is in shard `fnv1a(utf8(term)) % count`, file `<3 hex digits>.json`. */
  count: Schema.Int.pipe(Schema.between(1, 1024))
})

/** A folder of numbered blocks (`<n>.json`): block `n` holds ids `n * size … n * size + size - 1`. */
export const BlockFolder = Schema.Struct({ folder: Path, size: Schema.Int.pipe(Schema.positive()) })

/** `search.json`, the static search's entry: one of the two files of a snapshot whose name is fixed. */
export const SearchEntry = Schema.Struct({
  formatVersion: Schema.Literal("1"),
  /** The episode search's description (EpisodeSearchMeta). */
  episodes: Path,
  /** The transcript search's description (TranscriptSearchMeta). */
  transcripts: Path
}).annotations({ identifier: "SearchEntry" })

/**
 * What a list of results shows of an episode, as its record has it: `[slug, title, episodeNumber,
 * publishedAt, durationSeconds, subtitle, description]` (its session is in `episodes`).
 */
export const EpisodeCard = Schema.Tuple(
  Slug,
  Schema.String,
  Schema.Int,
  Schema.String,
  Count,
  Schema.String,
  Schema.String
)

export const EpisodeSearchMeta = Schema.Struct({
  /** The searched fields in the order of `lengths`, `fieldAverages` and a term's `tf` rows. */
  fields: Schema.Array(Schema.String),
  /** Each field's average length in search terms over all episodes. */
  fieldAverages: Schema.Array(Schema.Number),
  /** By episode-index id (newest first): its episode file, its session and each field's length. */
  episodes: Schema.Array(Schema.Tuple(Path, Schema.Int, Schema.Array(Count))),
  shards: ShardFolder,
  /**
   * By episode-index id, what a result list shows (a later addition: optional), so that a page of
   * results needs no episode file.
   */
  cards: Schema.optional(Schema.Array(EpisodeCard))
}).annotations({ identifier: "EpisodeSearchMeta" })

/**
 * A term split into first postings and a whole list (ParagraphTerm's `all`), named in the transcript
 * search's description so that a query of several words reads its list without its shard.
 */
export const FrequentTerm = Schema.Struct({
  /** In how many paragraphs the term occurs. */
  n: Count,
  /** The file (in the shards' folder) with its whole posting list. */
  all: FileName,
  /**
   * For a term whose whole list leaves lengths out, when it has more slots than a head holds: its
   * head, the first slots (StaticSearchLayout's `headSlots`). A query made only of such terms walks
   * the heads first, and the whole lists are read only when that walk does not fill the candidates;
   * every candidate the heads find is in each of them, so one head's lengths (the smallest's) rank
   * them all (a later addition: optional).
   */
  head: Schema.optional(
    Schema.Struct({
      /** How many postings the head holds. */
      postings: Count,
      /** Its slots and counts (a ParagraphPostings without lengths). */
      file: FileName,
      /** The lengths of its paragraphs, in its order (a LengthBlock). */
      lengths: FileName
    })
  )
})

export const TranscriptSearchMeta = Schema.Struct({
  paragraphs: Count,
  /** The average paragraph length in search terms (BM25's average document length). */
  averageTerms: Schema.Number,
  /** In paragraph-id order: `[slug, paragraphs, session]`; ids count through them. */
  transcripts: Schema.Array(Schema.Tuple(Slug, Count, Schema.Int)),
  shards: ShardFolder,
  texts: BlockFolder,
  lengths: BlockFolder,
  /** Every term split into first postings and a whole list, by term (a later addition: optional). */
  frequent: Schema.optional(Schema.Record({ key: Schema.String, value: FrequentTerm }))
}).annotations({ identifier: "TranscriptSearchMeta" })

/** One term of the transcript index. */
export const ParagraphTerm = Schema.Struct({
  /** In how many paragraphs the term occurs. */
  n: Count,
  /** The term's slots: all of them, or the first postings (in slot order) when `all` is given. */
  slots: DeltaSlots,
  /** Per posting of `slots`, in slot order: how many words of the paragraph fold to the term. */
  counts: Schema.Array(Count),
  /** Per posting of `slots`, in slot order: the paragraph's length in search terms. */
  lengths: Schema.Array(Count),
  /** For a frequent term, the file (in the shard's folder) with its whole posting list. */
  all: Schema.optional(FileName)
}).annotations({ identifier: "ParagraphTerm" })

export const ParagraphShard = Schema.Record({ key: Schema.String, value: ParagraphTerm }).annotations({
  identifier: "ParagraphShard"
})

/**
 * The whole posting list of a frequent term, or its head (its first slots); lengths are left out for
 * the most frequent ones and of heads.
 */
export const ParagraphPostings = Schema.Struct({
  slots: DeltaSlots,
  counts: Schema.Array(Count),
  lengths: Schema.optional(Schema.Array(Count))
}).annotations({ identifier: "ParagraphPostings" })

/** One term (or word beginning) of the episode index. */
export const EpisodeTerm = Schema.Struct({
  /** In how many episodes some field holds the word itself (absent for a word beginning only). */
  n: Schema.optional(Count),
  /** The term's slots in each field that has it. */
  fields: Schema.Record({ key: Schema.String, value: DeltaSlots }),
  /**
   * `[id, tf…]` per episode where some field has the term, ids ascending and delta-coded: the term's
   * frequency in each field (the meta's field order), half the count of words that start with it
   * when no word is the term itself.
   */
  tf: Schema.Array(Schema.Array(Schema.Number))
}).annotations({ identifier: "EpisodeTerm" })

export const EpisodeShard = Schema.Record({ key: Schema.String, value: EpisodeTerm }).annotations({
  identifier: "EpisodeShard"
})

/** What a transcript hit shows of its episode. */
export const HitEpisodeFields = Schema.Struct({
  title: Schema.String,
  session: Schema.Int,
  episodeNumber: Schema.Int,
  audioUrl: Schema.String
})

/** The paragraphs of consecutive ids, and the episodes they belong to, for rendering hits. */
export const TextBlock = Schema.Struct({
  episodes: Schema.Record({ key: Slug, value: HitEpisodeFields }),
  paragraphs: Schema.Array(
    Schema.Struct({
      speaker: Schema.NullOr(Schema.String),
      startSeconds: Schema.NullOr(Schema.Number),
      text: Schema.String
    })
  )
}).annotations({ identifier: "TextBlock" })

/** Paragraph lengths in search terms, for consecutive ids. */
export const LengthBlock = Schema.Array(Count).annotations({ identifier: "LengthBlock" })

/** Every static search file (under `search/`, and `search.json`) with its hash and size. */
export const SearchFileTable = Schema.Record({
  key: Schema.String,
  value: Schema.Struct({ sha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)), bytes: Count })
}).annotations({ identifier: "SearchFileTable" })

// The static search files (docs/decisions/static-search-index.md, src/catalog/domain/StaticSearch.ts):
// each prebuilt FlexSearch map split by term into shards (by FNV-1a of the folded term), each entry
// exactly the slots the index holds, with what ranking needs beside each posting; the whole lists of
// frequent terms in files of their own; paragraph texts and lengths in blocks; and the two files that
// describe them, named from `search.json`. A reader with no server loads only what a query needs.
import { maxSearchResults } from "../src/catalog/CatalogLimits.js"
import type { Episode } from "../src/catalog/domain/Episode.js"
import type {
  EpisodeSearchMeta,
  EpisodeTerm,
  FrequentTerm,
  ParagraphPostings,
  ParagraphTerm,
  SearchEntry,
  TextBlock,
  TranscriptSearchMeta
} from "../src/catalog/domain/StaticSearch.js"
import type { Transcript } from "../src/catalog/domain/Transcript.js"
import { episodeFields } from "../src/catalog/SearchOptions.js"
import type { EpisodeStatistics } from "../src/catalog/search/EpisodeRanking.js"
import {
  blockFile,
  encodeSlots,
  firstPostings,
  headLengthsFile,
  headListFile,
  headSlots,
  lengthBlockSize,
  postingCount,
  type Slots,
  searchEntryPath,
  shardCountFor,
  shardFile,
  shardOf,
  textBlockSize,
  wholeListFile
} from "../src/catalog/search/StaticSearchLayout.js"
import { termFrequency } from "../src/catalog/search/TermCounts.js"
import type { BuiltIndexes, ExportedIndex } from "./Indexes.js"
import { hashedPath, type StagedSnapshot } from "./SnapshotWriter.js"

/** Where frequent terms are split; tests lower both to exercise the split on a small catalog. */
export interface StaticSearchOptions {
  /**
   * A shard holds at most this many postings of a term (the first, in FlexSearch's order) and names a
   * file with the whole list. The default is all a one-word query without a session reads.
   */
  readonly firstPostings: number
  /** Whole lists of terms in more paragraphs than this leave out the lengths. */
  readonly lengthsUpTo: number
}

export const defaultStaticSearchOptions: StaticSearchOptions = {
  firstPostings: maxSearchResults,
  lengthsUpTo: 10_000
}

export interface StaticSearchInput {
  /** Newest first: their positions are the episode index's ids. */
  readonly episodes: ReadonlyArray<Episode>
  readonly episodePaths: Readonly<Record<string, string>>
  /** In paragraph-id order. */
  readonly transcripts: ReadonlyArray<Transcript>
  readonly indexes: BuiltIndexes
  readonly episodeStatistics: EpisodeStatistics
  readonly options: StaticSearchOptions
}

/** What the manifest says of the static search files. */
export interface WrittenStaticSearch {
  readonly episodes: string
  readonly transcripts: string
}

/** `term → slots` of one field of an exported index, read from its map chunks. */
const fieldMap = (chunks: ExportedIndex, field: string): Map<string, Slots> => {
  const map = new Map<string, Slots>()
  for (const [key, data] of chunks) {
    if (key.startsWith(`${field}.`) && key.endsWith(".map")) {
      for (const [term, slots] of JSON.parse(data) as Array<[string, Slots]>) map.set(term, slots)
    }
  }
  return map
}

/** The terms of `maps` by shard, each shard's terms sorted, and the shard count. */
const byShard = (maps: ReadonlyArray<ReadonlyMap<string, Slots>>) => {
  const postings = maps.reduce((sum, map) => {
    let inMap = 0
    for (const slots of map.values()) inMap += postingCount(slots)
    return sum + inMap
  }, 0)
  const count = shardCountFor(postings)
  const shards = Array.from({ length: count }, () => new Set<string>())
  for (const map of maps) for (const term of map.keys()) shards[shardOf(term, count)]?.add(term)
  return { count, shards: shards.map((terms) => [...terms].sort()) }
}

/** Slots flattened in FlexSearch's order. */
const flatIds = (slots: Slots): Array<number> => slots.flatMap((ids) => ids ?? [])

/** A JSON object with any keys, `__proto__` included. */
const record = <V>() => Object.create(null) as Record<string, V>

function* paragraphShards(
  input: StaticSearchInput,
  map: ReadonlyMap<string, Slots>,
  layout: ReturnType<typeof byShard>,
  frequent: Record<string, typeof FrequentTerm.Encoded>
): Generator<readonly [string, string]> {
  const { statistics } = input.indexes.searchData
  const lengths = statistics.paragraphTerms
  const { firstPostings: first, lengthsUpTo } = input.options
  for (const [shard, terms] of layout.shards.entries()) {
    const entries = record<typeof ParagraphTerm.Encoded>()
    let split = 0
    for (const term of terms) {
      const slots = map.get(term) as Slots
      // `[id, count, …]`, ids ascending: a posting's count found by binary search.
      const counted = input.indexes.paragraphTermCounts.get(term) ?? []
      const countOf = (id: number) => {
        let low = 0
        let high = counted.length / 2 - 1
        while (low <= high) {
          const mid = (low + high) >> 1
          const at = counted[2 * mid] as number
          if (at === id) return counted[2 * mid + 1] as number
          if (at < id) low = mid + 1
          else high = mid - 1
        }
        throw new Error(`the index holds paragraph ${id} for "${term}", which does not have it`)
      }
      const n = statistics.documentFrequency[term] ?? postingCount(slots)
      const columns = (kept: Slots) => {
        const ids = flatIds(kept)
        return { counts: ids.map(countOf), lengths: ids.map((id) => lengths[id] ?? 0) }
      }
      if (postingCount(slots) <= first) {
        entries[term] = { n, slots: encodeSlots(slots), ...columns(slots) }
        continue
      }
      const kept = firstPostings(slots, first)
      const k = split++
      const all = wholeListFile(shard, k)
      entries[term] = { n, slots: encodeSlots(kept), ...columns(kept), all }
      const whole = columns(slots)
      const postings: typeof ParagraphPostings.Encoded = {
        slots: encodeSlots(slots),
        counts: whole.counts,
        ...(postingCount(slots) <= lengthsUpTo ? { lengths: whole.lengths } : {})
      }
      yield [all, JSON.stringify(postings)]
      if (postings.lengths === undefined && slots.length > headSlots) {
        const headSlotsOf = slots.slice(0, headSlots)
        const head: typeof ParagraphPostings.Encoded = {
          slots: encodeSlots(headSlotsOf),
          // Slot order: the head's postings are the whole list's first ones.
          counts: whole.counts.slice(0, postingCount(headSlotsOf))
        }
        const headPostings = head.counts.length
        const file = headListFile(shard, k)
        const headLengths = headLengthsFile(shard, k)
        yield [file, JSON.stringify(head)]
        yield [headLengths, JSON.stringify(whole.lengths.slice(0, headPostings))]
        frequent[term] = { n, all, head: { postings: headPostings, file, lengths: headLengths } }
      } else frequent[term] = { n, all }
    }
    yield [shardFile(shard), JSON.stringify(entries)]
  }
}

function* episodeShards(
  input: StaticSearchInput,
  maps: ReadonlyArray<ReadonlyMap<string, Slots>>,
  layout: ReturnType<typeof byShard>
): Generator<readonly [string, string]> {
  const { terms: counted, episodeFrequency } = input.episodeStatistics
  for (const [shard, terms] of layout.shards.entries()) {
    const entries = record<typeof EpisodeTerm.Encoded>()
    for (const term of terms) {
      const fields = record<ReadonlyArray<ReadonlyArray<number> | null>>()
      const ids = new Set<number>()
      episodeFields.forEach((field, f) => {
        const slots = maps[f]?.get(term)
        if (slots === undefined) return
        fields[field] = encodeSlots(slots)
        for (const id of flatIds(slots)) ids.add(id)
      })
      let previous = 0
      const tf = [...ids]
        .sort((a, b) => a - b)
        .map((id, i) => {
          const row = [i === 0 ? id : id - previous]
          previous = id
          for (const [f] of episodeFields.entries()) {
            const counts = counted[id]?.[f]?.counts
            row.push(counts === undefined ? 0 : termFrequency(counts, term))
          }
          return row
        })
      const n = episodeFrequency.get(term)
      entries[term] = { ...(n === undefined ? {} : { n }), fields, tf }
    }
    yield [shardFile(shard), JSON.stringify(entries)]
  }
}

function* textBlocks(input: StaticSearchInput): Generator<readonly [string, string]> {
  const episodeOf = new Map(input.episodes.map((episode) => [episode.slug, episode]))
  let block: { episodes: Record<string, (typeof TextBlock.Encoded)["episodes"][string]> } & {
    paragraphs: Array<(typeof TextBlock.Encoded)["paragraphs"][number]>
  } = { episodes: {}, paragraphs: [] }
  let number = 0
  for (const transcript of input.transcripts) {
    const episode = episodeOf.get(transcript.slug)
    for (const paragraph of transcript.paragraphs) {
      if (episode !== undefined && block.episodes[transcript.slug] === undefined) {
        block.episodes[transcript.slug] = {
          title: episode.title,
          session: episode.session,
          episodeNumber: episode.episodeNumber,
          audioUrl: episode.audio.url
        }
      }
      block.paragraphs.push({
        speaker: paragraph.speaker,
        startSeconds: paragraph.startSeconds,
        text: paragraph.text
      })
      if (block.paragraphs.length === textBlockSize) {
        yield [blockFile(number++), JSON.stringify(block)]
        block = { episodes: {}, paragraphs: [] }
      }
    }
  }
  if (block.paragraphs.length > 0) yield [blockFile(number), JSON.stringify(block)]
}

function* lengthBlocks(lengths: ReadonlyArray<number>): Generator<readonly [string, string]> {
  for (let start = 0; start < lengths.length; start += lengthBlockSize) {
    yield [blockFile(start / lengthBlockSize), JSON.stringify(lengths.slice(start, start + lengthBlockSize))]
  }
}

/** Writes every static search file into the staged snapshot; returns the paths the manifest names. */
export const writeStaticSearch = async (
  staged: StagedSnapshot,
  input: StaticSearchInput,
  progress: (message: string) => void
): Promise<WrittenStaticSearch> => {
  const { searchData } = input.indexes

  const paragraphMap = fieldMap(input.indexes.paragraphs, "text")
  const paragraphLayout = byShard([paragraphMap])
  const frequent = record<typeof FrequentTerm.Encoded>()
  const paragraphFolder = await staged.writeSearchFolder(
    "paragraphs",
    paragraphShards(input, paragraphMap, paragraphLayout, frequent)
  )
  paragraphMap.clear()
  progress(`wrote ${paragraphLayout.count} transcript search shards`)
  const texts = await staged.writeSearchFolder("texts", textBlocks(input))
  const lengths = await staged.writeSearchFolder(
    "lengths",
    lengthBlocks(searchData.statistics.paragraphTerms)
  )

  const episodeMaps = episodeFields.map((field) => fieldMap(input.indexes.episodes, field))
  const episodeLayout = byShard(episodeMaps)
  const episodeFolder = await staged.writeSearchFolder(
    "episodes",
    episodeShards(input, episodeMaps, episodeLayout)
  )

  const sessionOf = new Map(input.episodes.map((episode) => [episode.slug, episode.session]))
  const transcriptMeta: typeof TranscriptSearchMeta.Encoded = {
    paragraphs: searchData.statistics.paragraphs,
    averageTerms: searchData.statistics.averageTerms,
    transcripts: searchData.transcripts.map(
      ([slug, count]) => [slug, count, sessionOf.get(slug) ?? 0] as const
    ),
    shards: { folder: paragraphFolder, count: paragraphLayout.count },
    texts: { folder: texts, size: textBlockSize },
    lengths: { folder: lengths, size: lengthBlockSize },
    frequent
  }
  const episodeMeta: typeof EpisodeSearchMeta.Encoded = {
    fields: episodeFields,
    fieldAverages: input.episodeStatistics.fieldAverages,
    episodes: input.episodes.map(
      (episode, id) =>
        [
          input.episodePaths[episode.slug] as string,
          episode.session,
          input.episodeStatistics.terms[id]?.map((field) => field.length) ?? []
        ] as const
    ),
    shards: { folder: episodeFolder, count: episodeLayout.count },
    cards: input.episodes.map(
      (episode) =>
        [
          episode.slug,
          episode.title,
          episode.episodeNumber,
          episode.publishedAt,
          episode.durationSeconds,
          episode.subtitle,
          episode.description
        ] as const
    )
  }
  const written = {
    episodes: await writeHashed(staged, "episodes", JSON.stringify(episodeMeta)),
    transcripts: await writeHashed(staged, "transcripts", JSON.stringify(transcriptMeta))
  }
  const entry: typeof SearchEntry.Encoded = { formatVersion: "1", ...written }
  await staged.writeSearchFile(searchEntryPath, JSON.stringify(entry))
  return written
}

/** A description file under `search/`, named by its content. */
const writeHashed = async (staged: StagedSnapshot, stem: string, json: string) => {
  const path = hashedPath("search", stem, Buffer.from(json, "utf8"))
  await staged.writeSearchFile(path, json)
  return path
}

// Transcript search over the static search files, with the service's own code: the query's terms
// (SearchTerms.ts), FlexSearch's search over the entries of those terms (ParagraphRanking.findParagraphs
// over their slots), BM25 over the counts and lengths the build wrote
// (ParagraphRanking.rankParagraphs) and the hit's rendering (TranscriptHitFields.ts). It reads the
// shards of the query's terms, the whole lists of frequent terms when the query needs them, and the
// text blocks of the hits shown.
import type {
  FrequentTerm,
  ParagraphPostings,
  ParagraphShard,
  ParagraphTerm,
  TextBlock,
  TranscriptSearchMeta
} from "../../../src/catalog/domain/StaticSearch.js"
import { makeParagraphLocator } from "../../../src/catalog/search/ParagraphLocator.js"
import {
  candidateLimit,
  findParagraphs,
  type ParagraphCorpus,
  type ParagraphSource,
  rankParagraphs
} from "../../../src/catalog/search/ParagraphRanking.js"
import { noSearchTerms, searchTerms } from "../../../src/catalog/search/SearchTerms.js"
import {
  blockFile,
  decodeSlots,
  postingCount,
  type Slots,
  shardFile,
  shardOf
} from "../../../src/catalog/search/StaticSearchLayout.js"
import { transcriptHit } from "../../../src/catalog/search/TranscriptHitFields.js"
import { type Page, type PageQuery, pageOf } from "./Page.js"
import type { TranscriptHit } from "./Records.js"
import type { SnapshotFiles } from "./SnapshotFiles.js"
import { SnapshotReaderError } from "./SnapshotSource.js"

type Meta = typeof TranscriptSearchMeta.Encoded

export interface TranscriptSearchQuery extends PageQuery {
  readonly q: string
  readonly session?: number | undefined
}

/** One term's postings as a query uses them: all of them, or the first ones when they suffice. */
interface Postings {
  readonly n: number
  readonly slots: Slots
  readonly counts: ReadonlyArray<number>
  readonly lengths: ReadonlyArray<number> | undefined
}

export const makeTranscriptSearch = (
  files: SnapshotFiles,
  metaPath: string,
  link: (path: string) => string
) => {
  // Read at the first search (files.json keeps what it read).
  const meta = () => files.json<Meta>(metaPath)
  let derivedOnce: ReturnType<typeof derive> | undefined
  const derived = () => {
    derivedOnce ??= derive()
    return derivedOnce
  }
  const derive = () =>
    meta().then((m) => {
      const firstId = new Map<string, number>()
      let next = 0
      for (const [slug, count] of m.transcripts) {
        firstId.set(slug, next)
        next += count
      }
      return {
        locate: makeParagraphLocator(m),
        firstId,
        sessionOf: new Map(m.transcripts.map(([slug, , session]) => [slug, session]))
      }
    })
  const decoded = new Map<string, Postings>()

  /** The term's entry in its shard, or undefined when no paragraph has it. */
  const entryOf = async (m: Meta, term: string) => {
    const shard = shardOf(term, m.shards.count)
    const entries = await files.json<typeof ParagraphShard.Encoded>(`${m.shards.folder}/${shardFile(shard)}`)
    return Object.hasOwn(entries, term)
      ? { shard, entry: entries[term] as typeof ParagraphTerm.Encoded }
      : undefined
  }

  /** A frequent term's whole list. */
  const listOf = async (m: Meta, term: string, n: number, file: string) => {
    const key = `${term}\u0000all`
    let postings = decoded.get(key)
    if (postings === undefined) {
      const list = await files.json<typeof ParagraphPostings.Encoded>(`${m.shards.folder}/${file}`)
      postings = { n, slots: decodeSlots(list.slots), counts: list.counts, lengths: list.lengths }
      decoded.set(key, postings)
    }
    return postings
  }

  /** The description's entry for a term split into first postings and a whole list, if it is one. */
  const frequentOf = (m: Meta, term: string): typeof FrequentTerm.Encoded | undefined =>
    m.frequent !== undefined && Object.hasOwn(m.frequent, term) ? m.frequent[term] : undefined

  /** The term's postings: its whole list when `whole` and the shard keeps only the first ones. */
  const postingsOf = async (m: Meta, term: string, whole: boolean): Promise<Postings | undefined> => {
    const frequent = whole ? frequentOf(m, term) : undefined
    if (frequent !== undefined) return listOf(m, term, frequent.n, frequent.all)
    const found = await entryOf(m, term)
    if (found === undefined) return undefined
    const { entry } = found
    if (entry.all === undefined || !whole) {
      const key = `${term}\u0000first`
      let postings = decoded.get(key)
      if (postings === undefined) {
        postings = {
          n: entry.n,
          slots: decodeSlots(entry.slots),
          counts: entry.counts,
          lengths: entry.lengths
        }
        decoded.set(key, postings)
      }
      return postings
    }
    return listOf(m, term, entry.n, entry.all)
  }

  return async (query: TranscriptSearchQuery): Promise<Page<TranscriptHit>> => {
    const terms = searchTerms(query.q)
    if (terms.length === 0) throw new SnapshotReaderError(noSearchTerms("q"))
    const session = query.session
    const m = await meta()
    const { locate, firstId, sessionOf } = await derived()

    // A shard keeps the first postings of a frequent term: all a one-word query without a session
    // reads (FlexSearch reads at most candidateLimit of them); other queries read the whole lists,
    // those the description names without their shards.
    const whole =
      terms.length > 1 ||
      (await Promise.all(terms.map((term) => entryOf(m, term)))).some(
        (entry) =>
          entry !== undefined &&
          entry.entry.all !== undefined &&
          postingCount(entry.entry.slots) < candidateLimit(session)
      )
    const postings = await Promise.all(terms.map((term) => postingsOf(m, term, whole)))

    const found = findParagraphs((term) => postings[terms.indexOf(term)]?.slots, terms, session)

    // Each candidate's count of each term and its length, from the postings that hold them.
    const candidates = new Set(found)
    const counts = terms.map(() => new Map<number, number>())
    const lengths = new Map<number, number>()
    postings.forEach((p, t) => {
      if (p === undefined) return
      let at = 0
      for (const ids of p.slots) {
        for (const id of ids ?? []) {
          if (candidates.has(id)) {
            counts[t]?.set(id, p.counts[at] as number)
            if (p.lengths !== undefined) lengths.set(id, p.lengths[at] as number)
          }
          at++
        }
      }
    })
    const corpus: ParagraphCorpus = {
      paragraphs: m.paragraphs,
      averageTerms: m.averageTerms,
      documentFrequency: (term) => postings[terms.indexOf(term)]?.n
    }
    const missingLengths = new Set<number>()
    const source: ParagraphSource = {
      locate,
      sessionOf: (slug) => sessionOf.get(slug),
      terms: (id) => {
        const length = lengths.get(id)
        if (length === undefined) missingLengths.add(id)
        return { length: length ?? m.averageTerms, counts: counts.map((byId) => byId.get(id) ?? 0) }
      }
    }
    let ranked = rankParagraphs(found, terms, session, corpus, source)
    if (missingLengths.size > 0) {
      // Every term left its lengths out (only the most frequent do): read them from the length
      // blocks, and rank again with them.
      const blocks = [...new Set([...missingLengths].map((id) => Math.floor(id / m.lengths.size)))]
      await Promise.all(
        blocks.map(async (block) => {
          const values = await files.json<ReadonlyArray<number>>(`${m.lengths.folder}/${blockFile(block)}`)
          values.forEach((length, i) => {
            const id = block * m.lengths.size + i
            if (missingLengths.has(id)) lengths.set(id, length)
          })
        })
      )
      ranked = rankParagraphs(found, terms, session, corpus, source)
    }

    const termSet = new Set(terms)
    return pageOf(ranked, query, async (hit) => {
      const id = (firstId.get(hit.slug) ?? 0) + hit.paragraphIndex
      const block = await files.json<typeof TextBlock.Encoded>(
        `${m.texts.folder}/${blockFile(Math.floor(id / m.texts.size))}`
      )
      const episode = block.episodes[hit.slug]
      if (episode === undefined)
        throw new SnapshotReaderError(`the text block of paragraph ${id} names no episode ${hit.slug}`)
      return transcriptHit(
        hit,
        { ...episode, audio: { url: episode.audioUrl } },
        block.paragraphs[id % m.texts.size],
        termSet,
        link
      )
    })
  }
}

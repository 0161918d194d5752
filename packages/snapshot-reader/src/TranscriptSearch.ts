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
import { reserveIds } from "../../../src/catalog/search/SlotIntersection.js"
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

  /** A frequent term's whole list, or its head. */
  const listOf = async (m: Meta, n: number, file: string) => {
    let postings = decoded.get(file)
    if (postings === undefined) {
      const list = await files.json<typeof ParagraphPostings.Encoded>(`${m.shards.folder}/${file}`)
      postings = { n, slots: decodeSlots(list.slots), counts: list.counts, lengths: list.lengths }
      decoded.set(file, postings)
    }
    return postings
  }

  /** The description's entry for a term split into first postings and a whole list, if it is one. */
  const frequentOf = (m: Meta, term: string): typeof FrequentTerm.Encoded | undefined =>
    m.frequent !== undefined && Object.hasOwn(m.frequent, term) ? m.frequent[term] : undefined

  /** The term's postings: its whole list when `whole` and the shard keeps only the first ones. */
  const postingsOf = async (m: Meta, term: string, whole: boolean): Promise<Postings | undefined> => {
    const frequent = whole ? frequentOf(m, term) : undefined
    if (frequent !== undefined) return listOf(m, frequent.n, frequent.all)
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
    return listOf(m, entry.n, entry.all)
  }

  /**
   * The candidates of the query's terms, as FlexSearch finds them, and the postings that hold them.
   * A query made only of the most frequent words walks their heads (their first slots) first:
   * FlexSearch walks slot by slot and stops at its limit, so when the heads fill it, the whole lists
   * would have given the same candidates. Only otherwise are the whole lists read.
   */
  const candidatesOf = async (
    m: Meta,
    terms: ReadonlyArray<string>,
    session: number | undefined,
    whole: boolean
  ): Promise<{ postings: ReadonlyArray<Postings | undefined>; found: Array<number> }> => {
    const walk = (postings: ReadonlyArray<Postings | undefined>) =>
      findParagraphs((term) => postings[terms.indexOf(term)]?.slots, terms, session)
    const frequent = terms.length > 1 ? terms.map((term) => frequentOf(m, term)) : []
    const heads = frequent.flatMap((term) => (term?.head === undefined ? [] : [{ n: term.n, ...term.head }]))
    if (heads.length > 0 && heads.length === terms.length) {
      const smallest = heads.reduce((a, b) => (b.postings < a.postings ? b : a))
      const [postings, lengths] = await Promise.all([
        Promise.all(heads.map((head) => listOf(m, head.n, head.file))),
        files.json<ReadonlyArray<number>>(`${m.shards.folder}/${smallest.lengths}`)
      ])
      const found = walk(postings)
      if (found.length >= candidateLimit(session))
        return {
          postings: postings.map((head, i) => (heads[i] === smallest ? { ...head, lengths } : head)),
          found
        }
    }
    const postings = await Promise.all(terms.map((term) => postingsOf(m, term, whole)))
    return { postings, found: walk(postings) }
  }

  /**
   * What every search starts from, made before the first one: the description read, the lookups
   * derived from it, and room for every paragraph id in the intersection's array. In a fresh page on
   * the corpus the first query spent about 25 ms on these before its first read.
   */
  const prepare = async () => {
    const m = await meta()
    await derived()
    reserveIds(m.paragraphs)
  }

  const search = async (query: TranscriptSearchQuery): Promise<Page<TranscriptHit>> => {
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
    const { postings, found } = await candidatesOf(m, terms, session, whole)

    // Each candidate's count of each term and its length, from the postings that hold them.
    // Every posting is looked at (a whole list holds up to 100,000): candidates are marked in an
    // array by id rather than looked up in a Set, a third of a query's work in a profile.
    const marked = new Uint8Array(found.reduce((largest, id) => Math.max(largest, id), -1) + 1)
    for (const id of found) marked[id] = 1
    const counts = terms.map(() => new Map<number, number>())
    const lengths = new Map<number, number>()
    postings.forEach((p, t) => {
      if (p === undefined) return
      const byId = counts[t] as Map<number, number>
      let at = 0
      for (const ids of p.slots) {
        if (ids === null) continue
        for (let z = 0; z < ids.length; z++, at++) {
          const id = ids[z] as number
          if (id < marked.length && marked[id] === 1) {
            byId.set(id, p.counts[at] as number)
            if (p.lengths !== undefined) lengths.set(id, p.lengths[at] as number)
          }
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
        if (locate(id) === undefined) return undefined
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

  return { search, prepare }
}

// Episode, transcript and documentation search over the prebuilt indexes. FlexSearch finds the
// candidates (every query word must match); relevance is computed here with BM25, because FlexSearch
// 0.8 reports no scores; the session filter is applied after the query, because its tag filter can
// miss results combined with a query. Ranked results are cached by normalised query, and pages are
// cut from them with cursors bound to the query and the snapshot.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { BadRequest } from "../http/ApiError.js"
import { Catalog, type CatalogService } from "./Catalog.js"
import { CatalogConfig } from "./CatalogConfig.js"
import { makeCursorCodec } from "./Cursor.js"
import { TranscriptHit, TranscriptHitLinks } from "./domain/Collections.js"
import type { DocPage } from "./domain/DocPage.js"
import { Episode } from "./domain/Episode.js"
import {
  countTerm,
  type EpisodeField,
  episodeFields,
  episodeFieldWeights,
  episodeSearchFields,
  tokenize,
  wordSpans
} from "./SearchOptions.js"

/** Searches rank at most this many candidates; deeper pages of very broad queries end here. */
export const maxResults = 1000

export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly nextCursor: string | null
}

export interface PageRequest {
  readonly limit: number
  readonly cursor: string | undefined
}

export interface EpisodeQuery extends PageRequest {
  readonly q: string | undefined
  readonly session: number | undefined
}

export interface TranscriptQuery extends PageRequest {
  readonly q: string
  readonly session: number | undefined
}

export interface DocHit {
  readonly page: DocPage
  readonly relevance: number
  readonly snippet: string
}

export interface SearchService {
  /** Newest first without `q`; by relevance with it. */
  readonly episodes: (query: EpisodeQuery) => Either.Either<Page<Episode>, BadRequest>
  readonly transcripts: (query: TranscriptQuery) => Either.Either<Page<TranscriptHit>, BadRequest>
  readonly docs: (q: string, limit: number) => Either.Either<ReadonlyArray<DocHit>, BadRequest>
}

export class Search extends Context.Tag("Search")<Search, SearchService>() {}

/** The words of a query as search terms, or a 400 when there is none to search for. */
export const queryTerms = (
  q: string,
  parameter: string
): Either.Either<ReadonlyArray<string>, BadRequest> => {
  const terms = [...new Set(tokenize(q))]
  return terms.length > 0
    ? Either.right(terms)
    : Either.left(
        new BadRequest({
          message: `${parameter} must hold at least one word of two or more letters or digits`,
          data: { parameter }
        })
      )
}

// BM25 parameters (the usual defaults).
const k1 = 1.2
const b = 0.75
const bm25 = (tf: number, length: number, averageLength: number, idf: number) =>
  (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / Math.max(averageLength, 1)))
const inverseFrequency = (documents: number, containing: number) =>
  Math.log(1 + (documents - containing + 0.5) / (containing + 0.5))
const round = (n: number) => Math.round(n * 1000) / 1000

/** A small least-recently-used cache. */
const makeCache = <V>(capacity: number) => {
  const entries = new Map<string, V>()
  return {
    get: (key: string): V | undefined => {
      const value = entries.get(key)
      if (value !== undefined) {
        entries.delete(key)
        entries.set(key, value)
      }
      return value
    },
    set: (key: string, value: V) => {
      if (entries.size >= capacity) entries.delete(entries.keys().next().value as string)
      entries.set(key, value)
    }
  }
}

/** Term counts of each searched field of an episode, for relevance and matched fields. */
interface EpisodeTerms {
  readonly fields: ReadonlyArray<{
    readonly field: EpisodeField
    readonly counts: Map<string, number>
    readonly length: number
  }>
}

const countTerms = (text: string) => {
  const counts = new Map<string, number>()
  const terms = tokenize(text)
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
  return { counts, length: terms.length }
}

/** Ids in the order FlexSearch gave them, merged over the fields of a Document result. */
const mergedIds = (results: ReadonlyArray<{ readonly result: ReadonlyArray<unknown> }>): Array<number> => {
  const seen = new Set<number>()
  for (const fieldResult of results) for (const id of fieldResult.result) seen.add(id as number)
  return [...seen]
}

const snippetLength = 280

/** A window of the paragraph around its first match, with the matched words' offsets in it. */
export const snippetOf = (text: string, terms: ReadonlySet<string>) => {
  const spans = wordSpans(text)
  const matches = spans.filter((span) => terms.has(span.term))
  let start = 0
  let end = text.length
  if (text.length > snippetLength) {
    const first = matches[0]?.start ?? 0
    start = Math.max(0, first - 100)
    if (start > 0) {
      const space = text.indexOf(" ", start)
      start = space === -1 || space > first ? start : space + 1
    }
    end = Math.min(text.length, start + snippetLength)
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end)
      end = space > start ? space : end
    }
  }
  const prefix = start > 0 ? "…" : ""
  const snippet = `${prefix}${text.slice(start, end)}${end < text.length ? "…" : ""}`
  const highlights = matches
    .filter((span) => span.start >= start && span.end <= end)
    .map((span) => [span.start - start + prefix.length, span.end - start + prefix.length] as const)
  return { snippet, highlights }
}

export const makeSearch = (catalog: CatalogService, cursorSecret: string): SearchService => {
  const cursors = makeCursorCodec(catalog.manifest.id, cursorSecret)
  const baseUrl = catalog.manifest.baseUrl.replace(/\/+$/, "")

  const paginate = <R, A>(
    results: ReadonlyArray<R>,
    queryKey: string,
    request: PageRequest,
    render: (result: R) => A
  ): Either.Either<Page<A>, BadRequest> =>
    Either.map(
      request.cursor === undefined ? Either.right(0) : cursors.decode(request.cursor, queryKey),
      (offset) => {
        const end = offset + request.limit
        return {
          data: results.slice(offset, end).map(render),
          nextCursor: end < results.length ? cursors.encode(queryKey, end) : null
        }
      }
    )

  // ---- episodes ----------------------------------------------------------------------------
  const episodes = catalog.episodes
  const episodeTerms: Array<EpisodeTerms> = episodes.map((episode) => {
    const texts = episodeSearchFields(episode)
    return { fields: episodeFields.map((field) => ({ field, ...countTerms(texts[field]) })) }
  })
  const fieldAverage = new Map<EpisodeField, number>(
    episodeFields.map((field, i) => [
      field,
      episodeTerms.reduce((sum, terms) => sum + (terms.fields[i]?.length ?? 0), 0) /
        Math.max(episodes.length, 1)
    ])
  )
  const episodeFrequency = new Map<string, number>()
  for (const terms of episodeTerms) {
    const seen = new Set<string>()
    for (const { counts } of terms.fields) for (const term of counts.keys()) seen.add(term)
    for (const term of seen) episodeFrequency.set(term, (episodeFrequency.get(term) ?? 0) + 1)
  }

  /** Occurrences of `term` in a field; words that only start with it count half (prefix search). */
  const termFrequency = (counts: Map<string, number>, term: string) => {
    const exact = counts.get(term)
    if (exact !== undefined) return exact
    let prefixed = 0
    for (const [word, count] of counts) if (word.startsWith(term)) prefixed += count
    return prefixed / 2
  }

  interface RankedEpisode {
    readonly index: number
    readonly relevance: number | null
    readonly matchedFields: ReadonlyArray<string>
  }
  const episodeCache = makeCache<ReadonlyArray<RankedEpisode>>(500)
  const inSession = (session: number | undefined) => (index: number) =>
    session === undefined || episodes[index]?.session === session

  const rankEpisodes = (
    terms: ReadonlyArray<string>,
    session: number | undefined
  ): ReadonlyArray<RankedEpisode> => {
    let candidates: Set<number> | undefined
    for (const term of terms) {
      const found = new Set(mergedIds(catalog.indexes.episodes.search(term, { limit: episodes.length })))
      candidates = candidates === undefined ? found : new Set([...candidates].filter((id) => found.has(id)))
    }
    const ranked: Array<RankedEpisode> = []
    for (const index of candidates ?? []) {
      if (!inSession(session)(index)) continue
      const fields = episodeTerms[index]?.fields ?? []
      let relevance = 0
      const matched: Array<string> = []
      for (const { field, counts, length } of fields) {
        let score = 0
        for (const term of terms) {
          const tf = termFrequency(counts, term)
          if (tf > 0) {
            score += bm25(
              tf,
              length,
              fieldAverage.get(field) ?? 1,
              inverseFrequency(episodes.length, episodeFrequency.get(term) ?? 1)
            )
          }
        }
        if (score > 0) {
          matched.push(field)
          relevance += episodeFieldWeights[field] * score
        }
      }
      ranked.push({ index, relevance: round(relevance), matchedFields: matched })
    }
    // Equal relevance: newest first, as the list is ordered.
    return ranked.sort((a, b) => (b.relevance ?? 0) - (a.relevance ?? 0) || a.index - b.index)
  }

  const searchEpisodes = (query: EpisodeQuery): Either.Either<Page<Episode>, BadRequest> => {
    const q = query.q?.trim()
    const session = query.session
    if (q === undefined || q === "") {
      const key = `list|${session ?? ""}`
      let listed = episodeCache.get(key)
      if (listed === undefined) {
        listed = episodes.flatMap((_, index) =>
          inSession(session)(index) ? [{ index, relevance: null, matchedFields: [] }] : []
        )
        episodeCache.set(key, listed)
      }
      return paginate(listed, key, query, ({ index }) => episodes[index] as Episode)
    }
    return Either.flatMap(queryTerms(q, "q"), (terms) => {
      const key = `episodes|${[...terms].sort().join(" ")}|${session ?? ""}`
      let ranked = episodeCache.get(key)
      if (ranked === undefined) {
        ranked = rankEpisodes(terms, session).slice(0, maxResults)
        episodeCache.set(key, ranked)
      }
      return paginate(ranked, key, query, ({ index, relevance, matchedFields }) => {
        const episode = episodes[index] as Episode
        // Validation already happened at load; this only sets the search fields.
        return new Episode({ ...episode, relevance, matchedFields }, true)
      })
    })
  }

  // ---- transcripts -------------------------------------------------------------------------
  const statistics = catalog.searchData.statistics
  const transcriptOrder = catalog.searchData.transcripts
  const firstParagraphId: Array<number> = []
  {
    let next = 0
    for (const [, count] of transcriptOrder) {
      firstParagraphId.push(next)
      next += count
    }
  }
  const sessionOfSlug = new Map(episodes.map((episode) => [episode.slug, episode.session]))
  /** The transcript (position in `transcriptOrder`) that paragraph `id` belongs to. */
  const transcriptOf = (id: number): number => {
    let low = 0
    let high = firstParagraphId.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((firstParagraphId[mid] ?? 0) <= id) low = mid
      else high = mid - 1
    }
    return low
  }

  interface RankedParagraph {
    readonly slug: string
    readonly paragraphIndex: number
    readonly relevance: number
  }
  const transcriptCache = makeCache<{ terms: ReadonlySet<string>; ranked: ReadonlyArray<RankedParagraph> }>(
    500
  )

  const rankParagraphs = (q: string, terms: ReadonlyArray<string>, session: number | undefined) => {
    // With a session filter, more candidates are read so that enough remain after filtering.
    const limit = session === undefined ? maxResults : 20 * maxResults
    const found = mergedIds(catalog.indexes.paragraphs.search(q, { limit }))
    const ranked: Array<RankedParagraph> = []
    for (const id of found) {
      const position = transcriptOf(id)
      const slug = transcriptOrder[position]?.[0]
      if (slug === undefined || (session !== undefined && sessionOfSlug.get(slug) !== session)) continue
      const paragraphIndex = id - (firstParagraphId[position] ?? 0)
      const paragraph = catalog.transcriptRecord(slug)?.paragraphs[paragraphIndex]
      if (paragraph === undefined) continue
      const length = statistics.paragraphTerms[id] ?? statistics.averageTerms
      const lower = paragraph.text.toLowerCase()
      let relevance = 0
      for (const term of terms) {
        const tf = countTerm(paragraph.text, lower, term)
        if (tf > 0) {
          relevance += bm25(
            tf,
            length,
            statistics.averageTerms,
            inverseFrequency(statistics.paragraphs, statistics.documentFrequency[term] ?? 1)
          )
        }
      }
      ranked.push({ slug, paragraphIndex, relevance: round(relevance) })
      if (ranked.length >= maxResults) break
    }
    return ranked.sort((a, b) => b.relevance - a.relevance)
  }

  /** The nearest known start at or before a paragraph, so every hit can link into the audio. */
  const audioStart = (slug: string, paragraphIndex: number): number => {
    const paragraphs = catalog.transcriptRecord(slug)?.paragraphs ?? []
    for (let i = paragraphIndex; i >= 0; i--) {
      const start = paragraphs[i]?.startSeconds
      if (start !== null && start !== undefined) return start
    }
    return 0
  }

  const renderHit =
    (terms: ReadonlySet<string>) =>
    (ranked: RankedParagraph): TranscriptHit => {
      const episode = catalog.episode(ranked.slug) as Episode
      const paragraph = catalog.transcriptRecord(ranked.slug)?.paragraphs[ranked.paragraphIndex]
      const { snippet, highlights } = snippetOf(paragraph?.text ?? "", terms)
      return new TranscriptHit(
        {
          slug: ranked.slug,
          title: episode.title,
          session: episode.session,
          episodeNumber: episode.episodeNumber,
          paragraphIndex: ranked.paragraphIndex,
          speaker: paragraph?.speaker ?? null,
          startSeconds: paragraph?.startSeconds ?? null,
          snippet,
          highlights,
          relevance: ranked.relevance,
          links: new TranscriptHitLinks(
            {
              episode: `${baseUrl}/v1/episodes/${encodeURIComponent(ranked.slug)}`,
              transcript: `${baseUrl}/v1/transcripts/${encodeURIComponent(ranked.slug)}`,
              audioAt: `${episode.audio.url}#t=${audioStart(ranked.slug, ranked.paragraphIndex)}`
            },
            true
          )
        },
        true
      )
    }

  const searchTranscripts = (query: TranscriptQuery): Either.Either<Page<TranscriptHit>, BadRequest> =>
    Either.flatMap(queryTerms(query.q, "q"), (terms) => {
      const key = `transcripts|${[...terms].sort().join(" ")}|${query.session ?? ""}`
      let cached = transcriptCache.get(key)
      if (cached === undefined) {
        cached = { terms: new Set(terms), ranked: rankParagraphs(terms.join(" "), terms, query.session) }
        transcriptCache.set(key, cached)
      }
      return paginate(cached.ranked, key, query, renderHit(cached.terms))
    })

  // ---- documentation -----------------------------------------------------------------------
  const docTerms = catalog.docs.map((page) => countTerms(`${page.title} ${page.text}`))
  const docAverage = docTerms.reduce((sum, terms) => sum + terms.length, 0) / Math.max(docTerms.length, 1)
  const searchDocs = (q: string, limit: number): Either.Either<ReadonlyArray<DocHit>, BadRequest> =>
    Either.map(queryTerms(q, "query"), (terms) => {
      let candidates: Set<number> | undefined
      for (const term of terms) {
        const found = new Set(mergedIds(catalog.indexes.docs.search(term, { limit: catalog.docs.length })))
        candidates = candidates === undefined ? found : new Set([...candidates].filter((id) => found.has(id)))
      }
      const termSet = new Set(terms)
      return [...(candidates ?? [])]
        .map((id) => {
          const { counts, length } = docTerms[id] ?? { counts: new Map<string, number>(), length: 0 }
          const containing = (term: string) =>
            docTerms.filter((d) => termFrequency(d.counts, term) > 0).length
          const relevance = terms.reduce(
            (sum, term) =>
              sum +
              bm25(
                termFrequency(counts, term),
                length,
                docAverage,
                inverseFrequency(docTerms.length, containing(term))
              ),
            0
          )
          const page = catalog.docs[id] as DocPage
          const paragraph = page.text
            .split(/\n\s*\n/)
            .find((block) => wordSpans(block).some((span) => termSet.has(span.term)))
          return {
            page,
            relevance: round(relevance),
            snippet: snippetOf(paragraph ?? page.text, termSet).snippet
          }
        })
        .sort((a, b) => b.relevance - a.relevance)
        .slice(0, limit)
    })

  return { episodes: searchEpisodes, transcripts: searchTranscripts, docs: searchDocs }
}

export const SearchLive = Layer.effect(
  Search,
  Effect.gen(function* () {
    const catalog = yield* Catalog
    const config = yield* CatalogConfig
    const secret = Option.match(config.cursorSecret, {
      onNone: () => `cursor:${catalog.manifest.id}`,
      onSome: Redacted.value
    })
    return makeSearch(catalog, secret)
  })
)

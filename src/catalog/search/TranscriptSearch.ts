// Transcript search: the paragraphs that hold every word (FlexSearch, whole words), ranked by BM25
// over the paragraph statistics the build step computed, the session filter applied after the
// query; each hit links into the audio at the nearest known start. Rankings are cached by
// normalised query.
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CatalogService } from "../Catalog.js"
import { maxSearchResults } from "../CatalogLimits.js"
import { TranscriptHit, TranscriptHitLinks } from "../domain/Collections.js"
import type { Episode } from "../domain/Episode.js"
import { getOrCompute, makeLruCache } from "../LruCache.js"
import { countTerm } from "../SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "./Bm25.js"
import { mergedIds } from "./Candidates.js"
import type { Page, PageRequest, Paginate } from "./Paginate.js"
import { queryTerms } from "./QueryTerms.js"
import { snippetOf } from "./Snippet.js"

export interface TranscriptQuery extends PageRequest {
  readonly q: string
  readonly session: number | undefined
}

interface RankedParagraph {
  readonly slug: string
  readonly paragraphIndex: number
  readonly relevance: number
}

interface Ranking {
  readonly terms: ReadonlySet<string>
  readonly ranked: ReadonlyArray<RankedParagraph>
}

export const makeTranscriptSearch = (
  catalog: CatalogService,
  paginate: Paginate
): ((query: TranscriptQuery) => Either.Either<Page<TranscriptHit>, BadRequest>) => {
  const baseUrl = catalog.manifest.baseUrl.replace(/\/+$/, "")
  const statistics = catalog.searchData.statistics
  // Paragraph ids run through the transcripts in this order; each transcript's first id marks
  // where it starts.
  const transcriptOrder = catalog.searchData.transcripts
  const firstParagraphId: Array<number> = []
  {
    let next = 0
    for (const [, count] of transcriptOrder) {
      firstParagraphId.push(next)
      next += count
    }
  }
  const sessionOfSlug = new Map(catalog.episodes.map((episode) => [episode.slug, episode.session]))
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

  const rankings = makeLruCache<Ranking>(500)

  const rank = (q: string, terms: ReadonlyArray<string>, session: number | undefined) => {
    // With a session filter, more candidates are read so that enough remain after filtering.
    const limit = session === undefined ? maxSearchResults : 20 * maxSearchResults
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
      ranked.push({ slug, paragraphIndex, relevance: roundRelevance(relevance) })
      if (ranked.length >= maxSearchResults) break
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

  return (query) =>
    Either.flatMap(queryTerms(query.q, "q"), (terms) => {
      const key = `transcripts|${[...terms].sort().join(" ")}|${query.session ?? ""}`
      const ranking = getOrCompute(rankings, key, () => ({
        terms: new Set(terms),
        ranked: rank(terms.join(" "), terms, query.session)
      }))
      return paginate(ranking.ranked, key, query, renderHit(ranking.terms))
    })
}

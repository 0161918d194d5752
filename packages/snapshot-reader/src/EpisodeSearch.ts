// Episode search over the static search files, with the service's own code: the query's terms
// (SearchTerms.ts), FlexSearch's search over the entries of those terms in each field
// (EpisodeRanking.findEpisodes on a Document made with the shared options), and BM25 per field over
// the frequencies and lengths the build wrote (EpisodeRanking.rankEpisodes). It reads the shards of
// the query's terms and the episode files of the page shown; without words, the newest first.
import type {
  EpisodeSearchMeta,
  EpisodeShard,
  EpisodeTerm
} from "../../../src/catalog/domain/StaticSearch.js"
import { episodeFields, makeEpisodeIndex } from "../../../src/catalog/SearchOptions.js"
import {
  type EpisodeSource,
  findEpisodes,
  type RankedEpisode,
  rankEpisodes
} from "../../../src/catalog/search/EpisodeRanking.js"
import { noSearchTerms, searchTerms } from "../../../src/catalog/search/SearchTerms.js"
import {
  decodeSlots,
  type Slots,
  shardFile,
  shardOf
} from "../../../src/catalog/search/StaticSearchLayout.js"
import { importEntries } from "./Flexsearch.js"
import { type Page, type PageQuery, pageOf } from "./Page.js"
import type { Episode, EpisodeSummary } from "./Records.js"
import type { SnapshotFiles } from "./SnapshotFiles.js"
import { SnapshotReaderError } from "./SnapshotSource.js"

type Meta = typeof EpisodeSearchMeta.Encoded

export interface EpisodeSearchQuery extends PageQuery {
  /** Words to search for; without any, every episode newest first. */
  readonly q?: string | undefined
  readonly session?: number | undefined
}

/** One term as ranking reads it: its slots per field, and each episode's frequency per field. */
interface DecodedTerm {
  readonly n: number | undefined
  readonly fields: ReadonlyMap<string, Slots>
  readonly tf: ReadonlyMap<number, ReadonlyArray<number>>
}

const decodeTerm = (entry: typeof EpisodeTerm.Encoded): DecodedTerm => {
  const tf = new Map<number, ReadonlyArray<number>>()
  let id = 0
  entry.tf.forEach((row, i) => {
    id = i === 0 ? (row[0] as number) : id + (row[0] as number)
    tf.set(id, row.slice(1))
  })
  return {
    n: entry.n,
    fields: new Map(Object.entries(entry.fields).map(([field, slots]) => [field, decodeSlots(slots)])),
    tf
  }
}

export const makeEpisodeSearch = (
  files: SnapshotFiles,
  metaPath: string,
  origin: (json: string) => string
) => {
  // Read at the first search (files.json keeps what it read).
  const meta = () => files.json<Meta>(metaPath)
  const decoded = new Map<string, DecodedTerm | undefined>()
  const episodes = new Map<string, Promise<Episode>>()

  const termOf = async (m: Meta, term: string): Promise<DecodedTerm | undefined> => {
    if (decoded.has(term)) return decoded.get(term)
    const shard = await files.json<typeof EpisodeShard.Encoded>(
      `${m.shards.folder}/${shardFile(shardOf(term, m.shards.count))}`
    )
    const entry = Object.hasOwn(shard, term)
      ? decodeTerm(shard[term] as typeof EpisodeTerm.Encoded)
      : undefined
    decoded.set(term, entry)
    return entry
  }

  /** An episode's record as the service answers it: its links on the origin asked for. */
  const episodeAt = (m: Meta, index: number): Promise<Episode> => {
    const path = m.episodes[index]?.[0]
    if (path === undefined)
      return Promise.reject(new SnapshotReaderError(`no episode with index id ${index}`))
    let known = episodes.get(path)
    if (known === undefined) {
      known = files.text(path).then((json) => (JSON.parse(origin(json)) as { data: Episode }).data)
      known.catch(() => episodes.delete(path))
      episodes.set(path, known)
    }
    return known
  }

  /**
   * An episode's index id by its slug, from the episode files' names (`episodes/<slug>.<hash>.json`,
   * content/docs/snapshot.md), found once.
   */
  let bySlug: Map<string, number> | undefined
  const indexOfSlug = (m: Meta, slug: string): number | undefined => {
    if (bySlug === undefined) {
      bySlug = new Map()
      m.episodes.forEach(([path], index) => {
        const named = /^episodes\/(-?[0-9]+)\.[0-9a-f]{16}\.json$/.exec(path)?.[1]
        if (named !== undefined) bySlug?.set(named, index)
      })
    }
    return bySlug.get(slug)
  }

  /** The episode with this slug as the service answers its detail, or undefined when there is none. */
  const episode = async (slug: string): Promise<Episode | undefined> => {
    const m = await meta()
    const index = indexOfSlug(m, slug)
    return index === undefined ? undefined : episodeAt(m, index)
  }

  /** An episode's summary: from the description's cards, or its file in a snapshot without them. */
  const summaryAt = async (
    m: Meta,
    index: number,
    relevance: number | null,
    matchedFields: ReadonlyArray<string>
  ): Promise<EpisodeSummary> => {
    const card = m.cards?.[index]
    const session = m.episodes[index]?.[1]
    const [slug, title, episodeNumber, publishedAt, durationSeconds, subtitle, description] =
      card !== undefined && session !== undefined
        ? card
        : await episodeAt(m, index).then(
            (record) =>
              [
                record.slug,
                record.title,
                record.episodeNumber,
                record.publishedAt,
                record.durationSeconds,
                record.subtitle,
                record.description
              ] as const
          )
    return {
      slug,
      title,
      session: session ?? (await episodeAt(m, index)).session,
      episodeNumber,
      publishedAt,
      durationSeconds,
      subtitle,
      description,
      relevance,
      matchedFields
    }
  }

  /** The episodes a query finds, ranked (or newest first without words), each rendered by `render`. */
  const searchWith = async <A>(
    query: EpisodeSearchQuery,
    render: (
      m: Meta,
      index: number,
      relevance: number | null,
      matchedFields: ReadonlyArray<string>
    ) => Promise<A>
  ): Promise<Page<A>> => {
    const m = await meta()
    const session = query.session
    const q = query.q?.trim()
    if (q === undefined || q === "") {
      const listed = m.episodes.flatMap(([, episodeSession], index) =>
        session === undefined || episodeSession === session ? [index] : []
      )
      return pageOf(listed, query, (index) => render(m, index, null, []))
    }
    const terms = searchTerms(q)
    if (terms.length === 0) throw new SnapshotReaderError(noSearchTerms("q"))
    const entries = await Promise.all(terms.map((term) => termOf(m, term)))

    const index = makeEpisodeIndex()
    for (const field of episodeFields) {
      importEntries(
        index,
        field,
        terms.flatMap((term, i) => {
          const slots = entries[i]?.fields.get(field)
          return slots === undefined ? [] : [[term, slots] as const]
        })
      )
    }
    const source: EpisodeSource = {
      episodes: m.episodes.length,
      sessionOf: (index) => m.episodes[index]?.[1],
      fieldAverage: (f) => m.fieldAverages[f] ?? 1,
      fieldLength: (index, f) => m.episodes[index]?.[2][f] ?? 0,
      termFrequencies: () => (index, f, t) => entries[t]?.tf.get(index)?.[f] ?? 0,
      episodeFrequency: (term) => entries[terms.indexOf(term)]?.n
    }
    const ranked = rankEpisodes(findEpisodes(index, terms, m.episodes.length), terms, session, source)
    return pageOf(ranked, query, ({ index, relevance, matchedFields }: RankedEpisode) =>
      render(m, index, relevance, matchedFields)
    )
  }

  /** Episodes as the service answers the search: each episode's record, read from its file. */
  const search = (query: EpisodeSearchQuery): Promise<Page<Episode>> =>
    searchWith(query, async (m, index, relevance, matchedFields) => {
      const record = await episodeAt(m, index)
      // Outside a search the record's own (null and none) are the service's answer.
      return relevance === null ? record : { ...record, relevance, matchedFields: [...matchedFields] }
    })

  /** The same results as `search`, each as what a result list shows. */
  const searchSummaries = (query: EpisodeSearchQuery): Promise<Page<EpisodeSummary>> =>
    searchWith(query, summaryAt)

  return { search, searchSummaries, episode }
}

// Builds the search indexes ahead of time: FlexSearch documents for episodes, transcript paragraphs
// and documentation pages (options shared with the server through src/catalog/SearchOptions.ts),
// exported as chunks, plus the paragraph statistics that relevance ranking needs.
import type { DocPage } from "../src/catalog/domain/DocPage.js"
import type { Episode } from "../src/catalog/domain/Episode.js"
import { ParagraphStatistics, SearchData } from "../src/catalog/domain/SearchData.js"
import type { Transcript } from "../src/catalog/domain/Transcript.js"
import {
  episodeSearchFields,
  makeDocIndex,
  makeEpisodeIndex,
  makeParagraphIndex,
  tokenize
} from "../src/catalog/SearchOptions.js"

export type ExportedIndex = Array<readonly [key: string, data: string]>

export interface BuiltIndexes {
  readonly episodes: ExportedIndex
  readonly paragraphs: ExportedIndex
  readonly docs: ExportedIndex
  readonly searchData: SearchData
  /**
   * Per search term, the paragraphs that hold it with how many of their words fold to it, as
   * `[id, count, id, count, …]`, ids ascending: what the static search files carry beside each
   * posting (StaticSearch.ts).
   */
  readonly paragraphTermCounts: ReadonlyMap<string, ReadonlyArray<number>>
}

const exportIndex = async (index: {
  export: (handler: (key: string, data: string) => Promise<void>) => Promise<void>
}): Promise<ExportedIndex> => {
  const chunks: ExportedIndex = []
  await index.export(async (key, data) => {
    chunks.push([key, data])
  })
  return chunks
}

export const buildIndexes = async (
  episodes: ReadonlyArray<Episode>,
  transcripts: ReadonlyArray<Transcript>,
  docs: ReadonlyArray<DocPage>,
  progress: (message: string) => void
): Promise<BuiltIndexes> => {
  const episodeIndex = makeEpisodeIndex()
  episodes.forEach((episode, id) => {
    episodeIndex.add({ id, ...episodeSearchFields(episode) })
  })

  const paragraphIndex = makeParagraphIndex()
  const termCounts = new Map<string, Array<number>>()
  const total = transcripts.reduce((sum, transcript) => sum + transcript.paragraphs.length, 0)
  let id = 0
  let terms = 0
  const lengths: Array<number> = []
  for (const transcript of transcripts) {
    for (const paragraph of transcript.paragraphs) {
      const paragraphTerms = tokenize(paragraph.text)
      terms += paragraphTerms.length
      lengths.push(paragraphTerms.length)
      const counts = new Map<string, number>()
      for (const term of paragraphTerms) counts.set(term, (counts.get(term) ?? 0) + 1)
      for (const [term, count] of counts) {
        const postings = termCounts.get(term)
        if (postings === undefined) termCounts.set(term, [id, count])
        else postings.push(id, count)
      }
      paragraphIndex.add({ id, text: paragraph.text })
      id++
      if (id % 50_000 === 0) progress(`indexed ${id}/${total} paragraphs`)
    }
  }

  const docIndex = makeDocIndex()
  docs.forEach((page, docId) => {
    docIndex.add({ id: docId, title: page.title, text: page.text })
  })

  // Sorted keys keep the statistics file byte-identical whatever order terms were met in.
  const frequency: Record<string, number> = {}
  for (const term of [...termCounts.keys()].sort()) frequency[term] = (termCounts.get(term)?.length ?? 0) / 2

  return {
    episodes: await exportIndex(episodeIndex),
    paragraphs: await exportIndex(paragraphIndex),
    docs: await exportIndex(docIndex),
    searchData: new SearchData({
      schemaVersion: "1",
      transcripts: transcripts.map((transcript) => [transcript.slug, transcript.paragraphs.length] as const),
      episodes: episodes.map((episode) => episode.slug),
      statistics: new ParagraphStatistics({
        paragraphs: total,
        averageTerms: total === 0 ? 0 : Math.round((terms / total) * 1000) / 1000,
        documentFrequency: frequency,
        paragraphTerms: lengths
      })
    }),
    paragraphTermCounts: termCounts
  }
}

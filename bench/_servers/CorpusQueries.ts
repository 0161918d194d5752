// The queries of the corpus search bench (bench/corpus-search.ts), drawn seeded from the corpus' own
// text: a paragraph chosen at random, then two or three of its words at random (the corpus'
// vocabulary as people speak it, frequent words as often as they occur). Every query of a run is a
// distinct set of search terms (the caches key by the folded, sorted terms). Shared with the profile
// of those queries in one process (bench/_servers/ProfileCorpusSearch.ts), so that both ask the
// very same list.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { wordSpans } from "../../src/catalog/SearchOptions.js"
import { searchTerms } from "../../src/catalog/search/SearchTerms.js"

export interface CorpusQueries {
  readonly warmUp: ReadonlyArray<string>
  readonly rounds: ReadonlyArray<ReadonlyArray<string>>
  /** As many rounds again of `laterPerRound` queries each, drawn after the others (none by default). */
  readonly laterRounds: ReadonlyArray<ReadonlyArray<string>>
  /** How many distinct term sets the run drew (every query's). */
  readonly termSets: number
}

/**
 * `warmUp` queries, then `rounds` rounds of `perRound`, then `rounds` rounds of `laterPerRound`, from
 * the snapshot built in `snapshot`; no two share a set of terms.
 */
export const drawCorpusQueries = (
  snapshot: string,
  seed: number,
  warmUp: number,
  rounds: number,
  perRound: number,
  laterPerRound = 0
): CorpusQueries => {
  const readJson = <A>(path: string): A => JSON.parse(readFileSync(join(snapshot, path), "utf8")) as A
  const manifest = readJson<{
    collections: { searchData: string }
    transcripts: Record<string, string>
  }>("manifest.json")
  const searchData = readJson<{ transcripts: ReadonlyArray<readonly [string, number]> }>(
    manifest.collections.searchData
  )

  // A small seeded generator (mulberry32): the same seed draws the same queries on every machine.
  const random = (() => {
    let state = seed >>> 0
    return () => {
      state = (state + 0x6d2b79f5) >>> 0
      let t = state
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
    }
  })()
  const pick = (n: number) => Math.floor(random() * n)

  const paragraphsOf = new Map<string, ReadonlyArray<string>>()
  const paragraphTexts = (slug: string): ReadonlyArray<string> => {
    let texts = paragraphsOf.get(slug)
    if (texts === undefined) {
      const path = manifest.transcripts[slug] as string
      texts = readJson<{ data: { paragraphs: Array<{ text: string }> } }>(path).data.paragraphs.map(
        (p) => p.text
      )
      paragraphsOf.set(slug, texts)
    }
    return texts
  }
  const totalParagraphs = searchData.transcripts.reduce((sum, [, count]) => sum + count, 0)
  const paragraphAt = (id: number): string => {
    let rest = id
    for (const [slug, count] of searchData.transcripts) {
      if (rest < count) return paragraphTexts(slug)[rest] ?? ""
      rest -= count
    }
    return ""
  }

  /** `count` queries, each a set of terms no earlier query of the run had. */
  const seen = new Set<string>()
  const drawQueries = (count: number): Array<string> => {
    const queries: Array<string> = []
    while (queries.length < count) {
      const text = paragraphAt(pick(totalParagraphs))
      const words = wordSpans(text)
      const wanted = 2 + pick(2)
      if (words.length < wanted) continue
      // The words as written (lowercased), each a different search term.
      const chosen = new Map<string, string>()
      for (let tries = 0; chosen.size < wanted && tries < 20; tries++) {
        const word = words[pick(words.length)] as (typeof words)[number]
        if (!chosen.has(word.term)) chosen.set(word.term, text.slice(word.start, word.end).toLowerCase())
      }
      if (chosen.size < wanted) continue
      const q = [...chosen.values()].join(" ")
      const key = searchTerms(q).sort().join(" ")
      if (seen.has(key)) continue
      seen.add(key)
      queries.push(q)
    }
    return queries
  }
  const warmUpQueries = drawQueries(warmUp)
  const roundQueries = Array.from({ length: rounds }, () => drawQueries(perRound))
  const laterRounds =
    laterPerRound > 0 ? Array.from({ length: rounds }, () => drawQueries(laterPerRound)) : []
  return { warmUp: warmUpQueries, rounds: roundQueries, laterRounds, termSets: seen.size }
}

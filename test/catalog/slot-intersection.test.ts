// Transcript search finds candidates by walking the index's slots (SlotIntersection.ts) instead of
// calling FlexSearch's `search`, and counts terms in numbered paragraph terms (ParagraphTerms.ts)
// instead of in the text: both held here to what they replace, on random paragraphs whose words
// are drawn from a small vocabulary with a few very frequent ones (so that lists are long, limits
// are reached and every resolution slot is used), for random queries of one to five words.
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { maxSearchResults } from "../../src/catalog/CatalogLimits.js"
import {
  makeParagraphIndex,
  type ParagraphIndex,
  paragraphSlots,
  tokenize
} from "../../src/catalog/SearchOptions.js"
import { bm25, inverseFrequency, roundRelevance } from "../../src/catalog/search/Bm25.js"
import { mergedIds } from "../../src/catalog/search/Candidates.js"
import { candidateLimit, findParagraphs, scoreParagraphs } from "../../src/catalog/search/ParagraphRanking.js"
import { searchTerms } from "../../src/catalog/search/SearchTerms.js"
import {
  intersectByTables,
  intersectSlots,
  makeSlotTables
} from "../../src/catalog/search/SlotIntersection.js"
import { headSlots, type Slots } from "../../src/catalog/search/StaticSearchLayout.js"
import { makeParagraphTerms } from "../../src/catalog/snapshot/ParagraphTerms.js"

const frequent = ["the", "and", "you", "that", "know"]
const words = [
  ...frequent,
  "story",
  "stories",
  "rust",
  "kubernetes",
  "glass",
  "glasses",
  "café",
  "Cafe",
  "open",
  "source",
  "maintainers",
  "maintainer",
  "zebra",
  "42"
]
const word = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...frequent) },
  { weight: 2, arbitrary: fc.constantFrom(...words) }
)
const paragraph = fc.array(word, { minLength: 0, maxLength: 40 }).map((list) => list.join(" "))
const query = fc
  .array(fc.constantFrom(...words, "absent"), { minLength: 1, maxLength: 5 })
  .map((list) => list.join(" "))

const indexOf = (texts: ReadonlyArray<string>) => {
  const index = makeParagraphIndex()
  texts.forEach((text, id) => {
    index.add({ id, text })
  })
  return index
}

/**
 * Indexes of random paragraphs (at least `minParagraphs`), each asked random queries at a limit a
 * search uses: `checkerOf` is called once an index and answers the check of one query on it.
 */
const everyQuery = (
  minParagraphs: number,
  checkerOf: (
    index: ParagraphIndex,
    slotsOf: ReturnType<typeof paragraphSlots>
  ) => (q: string, limit: number) => void
) =>
  fc.assert(
    fc.property(
      fc.array(paragraph, { minLength: minParagraphs, maxLength: 400 }),
      fc.array(query, { minLength: 1, maxLength: 20 }),
      fc.constantFrom(1, 3, 10, candidateLimit(undefined)),
      (texts, queries, limit) => {
        const index = indexOf(texts)
        const check = checkerOf(index, paragraphSlots(index))
        for (const q of queries) check(q, limit)
      }
    ),
    { numRuns: 60 }
  )

describe("the slot walk", () => {
  it("finds what FlexSearch's own search finds, in its order, up to the limit", () => {
    everyQuery(1, (index, slotsOf) => (q, limit) => {
      const terms = searchTerms(q)
      expect(intersectSlots(terms.map(slotsOf), limit), q).toEqual(
        mergedIds(index.search(terms.join(" "), { limit }))
      )
      expect(findParagraphs(slotsOf, terms, undefined), q).toEqual(
        mergedIds(index.search(terms.join(" "), { limit: candidateLimit(undefined) }))
      )
    })
  })

  it("read from the slot tables of frequent terms, finds what FlexSearch's own search finds, in its order", () => {
    // Tables for every term, answering whenever the rarest term is rarer at all, so that most queries
    // of two or more words take the table path; the service's thresholds only choose when it pays.
    let answered = 0
    everyQuery(100, (index, slotsOf) => {
      const tables = makeSlotTables(1, 1)
      return (q, limit) => {
        const terms = [...new Set(tokenize(searchTerms(q).join(" ")))]
        const lists = terms.map(slotsOf)
        const expected = mergedIds(index.search(terms.join(" "), { limit }))
        expect(intersectSlots(lists, limit, tables), q).toEqual(expected)
        if (lists.length < 2 || lists.some((slots) => slots === undefined)) return
        const fromTables = intersectByTables(lists as ReadonlyArray<Slots>, limit, tables)
        if (fromTables === undefined) return
        answered++
        expect(fromTables, q).toEqual(expected)
      }
    })
    // The table path was put to the test, not passed over every time (about 250 times a run).
    expect(answered).toBeGreaterThan(100)
  })

  it("takes the tables only for terms that have them, and only when the rarest term is rarer by the ratio", () => {
    const texts = Array.from({ length: 400 }, (_, id) => (id % 50 === 0 ? "the zebra" : "the and"))
    const slotsOf = paragraphSlots(indexOf(texts))
    const lists = ["the", "zebra"].map(slotsOf) as ReadonlyArray<Slots>
    const expected = Array.from({ length: 8 }, (_, i) => i * 50)
    // "the" lists 400 paragraphs, "zebra" 8.
    expect(intersectByTables(lists, 1000, makeSlotTables(400))).toEqual(expected)
    expect(intersectByTables(lists, 3, makeSlotTables(400))).toEqual(expected.slice(0, 3))
    expect(intersectByTables(lists, 1000, makeSlotTables(401))).toBeUndefined()
    expect(intersectByTables(lists, 1000, makeSlotTables(1, 51))).toBeUndefined()
    expect(intersectByTables(lists, 1000, makeSlotTables(1, 50))).toEqual(expected)
  })

  it("over the terms' heads (their first slots), when it fills the limit, finds what the whole walk finds", () => {
    // What the snapshot reader relies on to read the heads of the most frequent words, not their
    // whole lists (docs/decisions/static-search-index.md).
    let filled = 0
    fc.assert(
      fc.property(
        fc.array(paragraph, { minLength: 100, maxLength: 400 }),
        // Queries of frequent words (those that have heads), and some others.
        fc.array(
          fc.oneof(
            {
              weight: 3,
              arbitrary: fc
                .array(fc.constantFrom(...frequent), { minLength: 2, maxLength: 4 })
                .map((list) => list.join(" "))
            },
            { weight: 1, arbitrary: query }
          ),
          { minLength: 1, maxLength: 20 }
        ),
        fc.constantFrom(1, 3, 10, 30),
        (texts, queries, limit) => {
          const slotsOf = paragraphSlots(indexOf(texts))
          for (const q of queries) {
            const lists = searchTerms(q).map(slotsOf)
            const heads = lists.map((slots) => slots?.slice(0, headSlots))
            const fromHeads = intersectSlots(heads, limit)
            if (fromHeads.length < limit) continue
            filled++
            expect(fromHeads, q).toEqual(intersectSlots(lists, limit))
          }
        }
      ),
      { numRuns: 60 }
    )
    // The property was put to the test, not skipped every time.
    expect(filled).toBeGreaterThan(30)
  })

  it("answers a walk after thousands of others, and ids past the ones met before", () => {
    const texts = Array.from({ length: 3000 }, (_, id) =>
      id % 3 === 0 ? "the rust" : id % 2 ? "the" : "rust"
    )
    const index = indexOf(texts)
    const slotsOf = paragraphSlots(index)
    const expected = mergedIds(index.search("the rust", { limit: 5000 }))
    expect(expected).toHaveLength(1000)
    for (let i = 0; i < 2000; i++)
      expect(intersectSlots(["the", "rust"].map(slotsOf), 5000)).toEqual(expected)
    // A term no paragraph has: nothing, as FlexSearch answers.
    expect(intersectSlots(["the", "absent"].map(slotsOf), 10)).toEqual([])
    expect(intersectSlots([], 10)).toEqual([])
  })
})

describe("numbered paragraph terms", () => {
  it("count each query term as tokenising the paragraph would", () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 1, maxLength: 50 }), query, (texts, q) => {
        const terms = makeParagraphTerms(texts.map((text) => tokenize(text).length))
        terms.fill(0, texts)
        const queried = searchTerms(q)
        const ids = queried.map(terms.termId)
        texts.forEach((text, id) => {
          expect(terms.filled(id)).toBe(true)
          expect([...terms.counts(id, ids)], text).toEqual(
            queried.map((term) => tokenize(text).filter((word) => word === term).length)
          )
        })
      }),
      { numRuns: 100 }
    )
  })

  it("count each query term from the count tables of the terms tabled as from their entries", () => {
    fc.assert(
      fc.property(
        fc.array(paragraph, { minLength: 1, maxLength: 50 }),
        query,
        fc.integer({ min: 0, max: 2 ** 31 }),
        (texts, q, seed) => {
          const lengths = texts.map((text) => tokenize(text).length)
          // Some terms tabled, by a hash of their text and the run's seed.
          const tabled = (term: string) =>
            [...term].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, seed) % 2 === 0
          const plain = makeParagraphTerms(lengths)
          const withTables = makeParagraphTerms(lengths, tabled)
          plain.fill(0, texts)
          withTables.fill(0, texts)
          const queried = searchTerms(q)
          texts.forEach((_, id) => {
            expect([...withTables.counts(id, queried.map(withTables.termId))]).toEqual([
              ...plain.counts(id, queried.map(plain.termId))
            ])
          })
        }
      ),
      { numRuns: 100 }
    )
  })

  it("count a word said more often in one paragraph than a packed entry's count holds", () => {
    const texts = [`${"the ".repeat(300)}rust ${"you ".repeat(255)}and`, "the rust"]
    const terms = makeParagraphTerms(texts.map((text) => tokenize(text).length))
    terms.fill(0, texts)
    const ids = ["the", "rust", "you", "and", "absent"].map(terms.termId)
    expect([...terms.counts(0, ids)]).toEqual([300, 1, 255, 1, 0])
    expect([...terms.counts(1, ids)]).toEqual([1, 1, 0, 0, 0])
    // Every term tabled: counts past what a table holds (15) come from the entries.
    const texts2 = [...texts, `${"so ".repeat(15)}${"we ".repeat(14)}`]
    const tabled = makeParagraphTerms(
      texts2.map((text) => tokenize(text).length),
      () => true
    )
    tabled.fill(0, texts2)
    const ids2 = ["the", "rust", "you", "and", "so", "we", "absent"].map(tabled.termId)
    expect([...tabled.counts(0, ids2)]).toEqual([300, 1, 255, 1, 0, 0, 0])
    expect([...tabled.counts(1, ids2)]).toEqual([1, 1, 0, 0, 0, 0, 0])
    expect([...tabled.counts(2, ids2)]).toEqual([0, 0, 0, 0, 15, 14, 0])
  })

  it("refuse a paragraph whose terms the statistics counted otherwise", () => {
    const terms = makeParagraphTerms([2])
    expect(() => terms.fill(0, ["one two three"])).toThrow(/3 search terms where the search data counts 2/)
    expect(terms.filled(0)).toBe(false)
  })
})

describe("ranked paragraphs", () => {
  // Few distinct lengths and counts, so that many candidates tie on relevance; more candidates than
  // a ranking keeps, so that the cut at maxSearchResults is taken.
  const candidate = fc.record({
    slug: fc.constantFrom("a", "b", "c", "gone"),
    counts: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
    length: fc.integer({ min: 1, max: 4 })
  })
  it("come best first as a stable sort of the scored candidates orders them, ties in the order found", () => {
    fc.assert(
      fc.property(
        fc.array(candidate, { minLength: 0, maxLength: maxSearchResults + 200 }),
        fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
        (candidates, session) => {
          const terms = ["x", "y", "z"]
          const corpus = {
            paragraphs: 5000,
            averageTerms: 2.5,
            documentFrequency: (term: string) => term.length * 40
          }
          const sessions: Record<string, number> = { a: 1, b: 2, c: 1 }
          const locate = (id: number) => {
            const slug = candidates[id]?.slug
            return slug === undefined || slug === "gone" ? undefined : { slug, paragraphIndex: id }
          }
          const found = candidates.map((_, id) => id)
          const ranked = scoreParagraphs(found, terms, session, corpus, {
            locate,
            sessionOf: (slug) => sessions[slug],
            terms: (id) =>
              locate(id) === undefined
                ? undefined
                : (candidates[id] as { counts: ArrayLike<number>; length: number })
          })
          // The reference: objects pushed in the order found, then Array.prototype.sort (stable).
          const idf = terms.map((term) => inverseFrequency(corpus.paragraphs, corpus.documentFrequency(term)))
          const expected: Array<{ slug: string; paragraphIndex: number; relevance: number }> = []
          for (const id of found) {
            const location = locate(id)
            if (location === undefined || (session !== undefined && sessions[location.slug] !== session))
              continue
            const { counts, length } = candidates[id] as { counts: Array<number>; length: number }
            let relevance = 0
            counts.forEach((tf, t) => {
              if (tf > 0) relevance += bm25(tf, length, corpus.averageTerms, idf[t] as number)
            })
            expected.push({ ...location, relevance: roundRelevance(relevance) })
            if (expected.length >= maxSearchResults) break
          }
          expected.sort((a, b) => b.relevance - a.relevance)
          expect(ranked.length).toBe(expected.length)
          expect(ranked.slice(0, ranked.length)).toEqual(expected)
          // Pages are the same slices of it.
          expect(ranked.slice(3, 13)).toEqual(expected.slice(3, 13))
          expect(ranked.slice(expected.length - 2, expected.length + 5)).toEqual(expected.slice(-2))
        }
      ),
      { numRuns: 60 }
    )
  })
})

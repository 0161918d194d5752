// The shared tokeniser: folding rules, and the fast term count used by ranking agreeing exactly
// with counting the tokenised words, on any text.
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { countTerm, foldWord, tokenize } from "../../src/catalog/SearchOptions.js"
import { searchTerms } from "../../src/catalog/search/SearchTerms.js"
import { countTerms, termFrequency } from "../../src/catalog/search/TermCounts.js"

const slowCount = (text: string, term: string) => tokenize(text).filter((word) => word === term).length

describe("the tokeniser", () => {
  it("folds case, accents and plurals the same way everywhere", () => {
    expect(tokenize("Keepers' LOGBOOKS, stories & Café-au-lait; a I 42")).toEqual([
      "keeper",
      "logbook",
      "story",
      "cafe",
      "au",
      "lait",
      "42"
    ])
    expect(foldWord("Houses")).toBe("house")
    expect(foldWord("glass")).toBe("glass")
    expect(foldWord("status")).toBe("status")
  })

  it("counts a term exactly as tokenising would, on random text", () => {
    const vocabulary = [
      "story",
      "stories",
      "storys",
      "history",
      "keeper",
      "keepers",
      "Keepers",
      "glass",
      "glasses",
      "bus",
      "buses",
      "status",
      "house",
      "houses",
      "lens",
      "lenses",
      "day",
      "days",
      "key",
      "keys",
      "a",
      "I",
      "42",
      "x42",
      "storyteller",
      "café",
      "cafes",
      "naïve",
      "ÜBER",
      "über",
      "über-keeper",
      "re-story",
      "o'story"
    ]
    const separators = [" ", ", ", ". ", "-", "'", "\n", "—", "(", ")", "/", "_"]
    const text = fc
      .array(fc.tuple(fc.constantFrom(...vocabulary), fc.constantFrom(...separators)), { maxLength: 30 })
      .map((parts) => parts.map(([word, separator]) => word + separator).join(""))
    fc.assert(
      fc.property(text, fc.constantFrom(...vocabulary), (sample, probe) => {
        const lower = sample.toLowerCase()
        for (const term of new Set([...tokenize(sample), ...tokenize(probe)])) {
          expect(countTerm(sample, lower, term), `${term} in ${JSON.stringify(sample)}`).toBe(
            slowCount(sample, term)
          )
        }
      }),
      { numRuns: 2000 }
    )
  })
})

describe("a term's frequency in counted text", () => {
  it("is the same found by binary search in the sorted words as by reading them all", () => {
    const word = fc.constantFrom(
      "map",
      "maps",
      "mapping",
      "maple",
      "ma",
      "m2",
      "café",
      "cafes",
      "zebra",
      "a1"
    )
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), word, (words, term) => {
        const counted = countTerms(words.join(" "))
        const prefix = searchTerms(term)[0] ?? term
        for (const asked of [prefix, prefix.slice(0, 1), prefix.slice(0, 2), `${prefix}x`])
          expect(termFrequency(counted.counts, asked, counted.sorted), asked).toBe(
            termFrequency(counted.counts, asked)
          )
      }),
      { numRuns: 300 }
    )
  })
})

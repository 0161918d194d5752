// The shared tokeniser's folding rules, and a term's frequency in counted text found by binary
// search agreeing with reading every word.
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { foldWord, tokenize } from "../../src/catalog/SearchOptions.js"
import { searchTerms } from "../../src/catalog/search/SearchTerms.js"
import { countTerms, termFrequency } from "../../src/catalog/search/TermCounts.js"

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

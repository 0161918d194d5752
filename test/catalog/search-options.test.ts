// The shared tokeniser's folding rules, a term's frequency in counted text found by binary search
// agreeing with reading every word, and the candidates every word finds agreeing with sets of them.
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { tokenize, wordSpans, wordSpansOf } from "../../src/catalog/SearchOptions.js"
import { candidatesOfEvery, type FieldResults, mergedIds } from "../../src/catalog/search/Candidates.js"
import { numberFieldTerms } from "../../src/catalog/search/FieldTermNumbers.js"
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
    expect(tokenize("Houses glass status")).toEqual(["house", "glass", "status"])
  })
})

describe("the words of a text", () => {
  // Letters and digits of every kind the scanner tells apart: ASCII, Latin with precomposed and
  // combining accents, other scripts, astral letters (a surrogate pair), astral symbols, lone
  // surrogates, letter-like numbers, and separators.
  const piece = fc.constantFrom(
    "a",
    "Z",
    "9",
    "é",
    "e\u0301",
    "ß",
    "ø",
    "Ⅻ",
    "١٢",
    "東京",
    "ǅ",
    "𝐀",
    "😀",
    "\uD800",
    "\uDC00",
    " ",
    "-",
    "’",
    "'",
    ".",
    "ties",
    "Stories",
    "glass",
    "Houses",
    "Café",
    "maps",
    "MAP",
    "x",
    "status"
  )
  const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""))
  // The definition the scanner implements: Unicode letters and digits by code point.
  const wordPattern = /[\p{L}\p{N}]+/gu

  it("are the runs of Unicode letters and digits, of two code units or more", () => {
    fc.assert(
      fc.property(text, (sample) => {
        const expected = [...sample.matchAll(wordPattern)]
          .filter((match) => match[0].length >= 2)
          .map((match) => [match.index, match.index + match[0].length])
        expect(wordSpans(sample).map((span) => [span.start, span.end])).toEqual(expected)
        // Their terms are the tokeniser's (which reads astral letters as no letters: it indexes code units).
        for (const span of wordSpans(sample)) {
          const word = sample.slice(span.start, span.end)
          if (!/[\uD800-\uDFFF]/.test(word)) expect([span.term]).toEqual(tokenize(word))
        }
      }),
      { numRuns: 500 }
    )
  })

  it("matching a query's terms are those of all the words with one of those terms", () => {
    const terms = fc.array(
      fc.constantFrom("ty", "story", "glass", "house", "cafe", "map", "x", "ǆ", "ß", "e"),
      {
        maxLength: 4
      }
    )
    fc.assert(
      fc.property(text, terms, fc.boolean(), (sample, picked, fromText) => {
        // Half the time the terms are the text's own, so that most words match.
        const own = fromText ? wordSpans(sample).map((span) => span.term) : []
        const wanted = new Set([...picked, ...own.slice(0, 3)])
        expect(wordSpansOf(sample, wanted)).toEqual(wordSpans(sample).filter((span) => wanted.has(span.term)))
      }),
      { numRuns: 500 }
    )
  })
})

describe("a term's frequency in counted text", () => {
  it("is the same with the words numbered (FieldTermNumbers) as read from the counts", () => {
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
      "a1",
      "Ωmega",
      "émile"
    )
    const fields = 3
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.array(word, { maxLength: 30 }), { minLength: fields, maxLength: fields }), {
          maxLength: 8
        }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        (texts, asked) => {
          const counted = texts.map((field) => field.map((words) => countTerms(words.join(" "))))
          // Whole terms, their beginnings, and words no text has.
          const terms = [
            ...new Set(
              asked.flatMap((term) => {
                const folded = searchTerms(term)[0] ?? term
                return [folded, folded.slice(0, 1), folded.slice(0, 2), `${folded}x`]
              })
            )
          ]
          const frequency = numberFieldTerms(counted, fields).frequencies(terms)
          counted.forEach((byField, i) => {
            byField.forEach((field, f) => {
              terms.forEach((term, t) => {
                expect(frequency(i, f, t), `${term} in text ${i} field ${f}`).toBe(
                  termFrequency(field.counts, term)
                )
              })
            })
          })
          // Beyond the texts and fields there is nothing.
          expect(frequency(counted.length, 0, 0)).toBe(0)
          expect(frequency(0, fields, 0)).toBe(0)
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe("the candidates every word finds", () => {
  // What candidatesOfEvery answered with sets: each word's ids merged over its fields, intersected,
  // in the order the first word found them.
  const bySets = (results: ReadonlyArray<FieldResults>): Array<number> => {
    let candidates: Set<number> | undefined
    for (const fields of results) {
      const found = new Set(mergedIds(fields))
      candidates = candidates === undefined ? found : new Set([...candidates].filter((id) => found.has(id)))
    }
    return [...(candidates ?? [])]
  }
  const fieldResults = fc.array(
    fc.record({ result: fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }) }),
    { maxLength: 3 }
  )

  it("are the ids every word finds in some field, in the first word's order, as sets found them", () => {
    fc.assert(
      fc.property(fc.array(fieldResults, { maxLength: 4 }), (results) => {
        const terms = results.map((_, t) => `w${t}`)
        const found = candidatesOfEvery(terms, (term) => results[Number(term.slice(1))] ?? [])
        expect(found).toEqual(bySets(results))
      }),
      { numRuns: 500 }
    )
  })

  it("are not disturbed by the queries before, nor by ids larger than any met before", () => {
    expect(
      candidatesOfEvery(["a", "b"], (term) => (term === "a" ? [{ result: [3, 1, 2] }] : [{ result: [2, 3] }]))
    ).toEqual([3, 2])
    expect(candidatesOfEvery(["a"], () => [{ result: [5000, 1] }, { result: [1, 7] }])).toEqual([5000, 1, 7])
    expect(
      candidatesOfEvery(["a", "b"], (term) => (term === "a" ? [{ result: [1, 2] }] : [{ result: [9] }]))
    ).toEqual([])
    expect(candidatesOfEvery([], () => [{ result: [1] }])).toEqual([])
  })
})

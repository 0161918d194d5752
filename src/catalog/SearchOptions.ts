// The one definition of how catalog text is tokenised and indexed. The build step creates and
// exports the FlexSearch indexes with these options and the server imports them with the very same
// options (FlexSearch requires it), and relevance scoring uses the same tokeniser, so a term that
// the index matched is a term the ranking sees.
import { Document } from "flexsearch"
import type { Episode } from "./domain/Episode.js"
import type { Slots } from "./search/StaticSearchLayout.js"

const combiningMarks = /\p{M}+/gu

/** Harman's "S" stemmer on a lowercase word. */
const stem = (w: string): string => {
  if (w.length <= 3) return w
  if (w.endsWith("ies") && !w.endsWith("eies") && !w.endsWith("aies")) return `${w.slice(0, -3)}y`
  if (w.endsWith("es") && !w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes"))
    return w.slice(0, -1)
  if (w.endsWith("s") && !w.endsWith("us") && !w.endsWith("ss")) return w.slice(0, -1)
  return w
}

/**
 * Folds one word (`ascii` when all its characters are) to its search form: lowercase, no
 * diacritics, then Harman's "S" stemmer, a weak English plural rule (`keepers` → `keeper`, `stories` → `story`, `houses` → `house`) chosen because
 * it never merges unrelated words; it does not relate irregular pairs such as `lens` and `lenses`.
 */
const fold = (word: string, ascii: boolean) =>
  stem(ascii ? word.toLowerCase() : word.normalize("NFKD").replace(combiningMarks, "").toLowerCase())

const letterOrDigit = /[\p{L}\p{N}]/u

/**
 * The search terms of a text: folded words of two or more letters or digits, in order. Words are
 * runs of Unicode letters and digits. A hand-written scanner, because ranking tokenises hundreds of
 * paragraphs per query and this is twice as fast as splitting with a Unicode regular expression.
 */
export const tokenize = (text: string): Array<string> => {
  const terms: Array<string> = []
  const length = text.length
  let start = -1
  let ascii = true
  for (let i = 0; i <= length; i++) {
    const c = i < length ? text.charCodeAt(i) : 32
    const isWordChar =
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      (c > 127 && letterOrDigit.test(text.charAt(i)))
    if (isWordChar) {
      if (start < 0) {
        start = i
        ascii = true
      }
      if (c > 127) ascii = false
    } else if (start >= 0) {
      if (i - start >= 2) terms.push(fold(text.slice(start, i), ascii))
      start = -1
    }
  }
  return terms
}

/** A word of `text` with its position, for highlighting: `[start, end)` in UTF-16 code units. */
export interface WordSpan {
  readonly term: string
  readonly start: number
  readonly end: number
}

/**
 * Calls `word` with the bounds of each word of `text`: runs of Unicode letters and digits, by code
 * point (what `/[\p{L}\p{N}]+/gu` matches), in UTF-16 code units, and whether the word is ASCII.
 */
const eachWord = (text: string, word: (start: number, end: number, ascii: boolean) => void) => {
  const length = text.length
  let start = -1
  let ascii = true
  for (let i = 0; i < length; ) {
    const c = text.charCodeAt(i)
    let width = 1
    let isWordChar: boolean
    if (c < 128) isWordChar = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)
    else {
      // A surrogate pair is one code point; a lone surrogate is no letter.
      width = (text.codePointAt(i) as number) > 0xffff ? 2 : 1
      isWordChar = letterOrDigit.test(text.slice(i, i + width))
    }
    if (isWordChar) {
      if (start < 0) {
        start = i
        ascii = true
      }
      if (c >= 128) ascii = false
    } else if (start >= 0) {
      word(start, i, ascii)
      start = -1
    }
    i += width
  }
  if (start >= 0) word(start, length, ascii)
}

/** The words of `text` (of two or more code units) with their terms and positions. */
export const wordSpans = (text: string): Array<WordSpan> => {
  const spans: Array<WordSpan> = []
  eachWord(text, (start, end, ascii) => {
    if (end - start >= 2) spans.push({ term: fold(text.slice(start, end), ascii), start, end })
  })
  return spans
}

/**
 * The words of `text` whose term is one of `terms`, with their positions: a snippet keeps the few
 * that match a query. Folding every word of a long paragraph to compare it was most of a hit's
 * snippet, so an ASCII word is folded only when it could fold to one of the terms: folding keeps its
 * first letter (lowercased) and takes at most two letters off its end (`ties` → `ty`). A span object
 * for every word was a tenth of what an uncached transcript search allocated.
 */
export const wordSpansOf = (text: string, terms: ReadonlySet<string>): Array<WordSpan> => {
  const spans: Array<WordSpan> = []
  const firstLetters = new Set<number>()
  let shortest = Number.POSITIVE_INFINITY
  let longest = 0
  for (const term of terms) {
    firstLetters.add(term.charCodeAt(0))
    shortest = Math.min(shortest, term.length)
    longest = Math.max(longest, term.length)
  }
  eachWord(text, (start, end, ascii) => {
    const length = end - start
    if (length < 2) return
    if (ascii) {
      const first = text.charCodeAt(start)
      if (
        length < shortest ||
        length - 2 > longest ||
        !firstLetters.has(first >= 65 && first <= 90 ? first + 32 : first)
      )
        return
    }
    const term = fold(text.slice(start, end), ascii)
    if (terms.has(term)) spans.push({ term, start, end })
  })
  return spans
}

/** Episode fields that are searched, with the weight a match in each carries in `relevance`. */
export const episodeFieldWeights = {
  title: 4,
  people: 3,
  subtitle: 2,
  description: 1.5,
  showNotes: 1
} as const

export type EpisodeField = keyof typeof episodeFieldWeights
export const episodeFields = Object.keys(episodeFieldWeights) as ReadonlyArray<EpisodeField>

/** The text of each searched field of an episode, as the episode index stores it. */
export const episodeSearchFields = (episode: Episode): { readonly [F in EpisodeField]: string } => ({
  title: episode.title,
  people: episode.people.map((person) => person.name).join(", "),
  subtitle: episode.subtitle,
  description: episode.description,
  showNotes: episode.showNotes
})

/** What the episode index stores per episode: its numeric id and one string per searched field. */
export type EpisodeIndexDocument = { readonly id: number } & { readonly [F in EpisodeField]: string }

/** What the transcript index stores per paragraph. */
export type ParagraphIndexDocument = {
  readonly id: number
  readonly text: string
}

/** What the documentation index stores per page. */
export type DocIndexDocument = {
  readonly id: number
  readonly title: string
  readonly text: string
}

const encode = tokenize

/** Episodes are few: prefix matching ("forward") lets partial words find titles and names. */
export const makeEpisodeIndex = () =>
  new Document<EpisodeIndexDocument>({
    document: {
      id: "id",
      index: episodeFields.map((field) => ({ field, tokenize: "forward" as const, encode, resolution: 9 }))
    },
    cache: false
  })

/** Paragraphs are many (hundreds of thousands in a large catalog): whole words only. */
export const makeParagraphIndex = () =>
  new Document<ParagraphIndexDocument>({
    document: { id: "id", index: [{ field: "text", tokenize: "strict" as const, encode, resolution: 5 }] },
    cache: false
  })

export const makeDocIndex = () =>
  new Document<DocIndexDocument>({
    document: {
      id: "id",
      index: [
        { field: "title", tokenize: "forward" as const, encode, resolution: 9 },
        { field: "text", tokenize: "forward" as const, encode, resolution: 9 }
      ]
    },
    cache: false
  })

/** Where flexsearch 0.8 keeps a Document field's words: `document.index.get(field).map`, term → slots. */
interface DocumentFields {
  readonly index?: ReadonlyMap<string, { readonly map?: ReadonlyMap<string, Slots> }>
}

/**
 * The slots of each term of the paragraph index (undefined when no paragraph has the term), read
 * from FlexSearch's own map: transcript search walks them as FlexSearch's search does
 * (search/SlotIntersection.ts). The map is looked up at each call, as an import replaces it.
 */
export const paragraphSlots = (index: ParagraphIndex): ((term: string) => Slots | undefined) => {
  const field = (index as unknown as DocumentFields).index?.get("text")
  if (!(field?.map instanceof Map))
    throw new Error('flexsearch no longer keeps a Document field\'s words in `index.get("text").map`')
  return (term) => field.map?.get(term)
}

export type EpisodeIndex = ReturnType<typeof makeEpisodeIndex>
export type ParagraphIndex = ReturnType<typeof makeParagraphIndex>
export type DocIndex = ReturnType<typeof makeDocIndex>

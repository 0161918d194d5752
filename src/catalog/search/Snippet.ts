// The snippet of a search hit: a window of the text around a match, cut at spaces, with the offsets
// of the matched words in it for highlighting.
import { wordSpansOf } from "../SearchOptions.js"

const snippetLength = 280
/** Characters shown before the match the window is placed at. */
const leadIn = 100
/** How far past that match a window surely reaches: matches within it are shown together. */
export const snippetReach = snippetLength - leadIn

export interface TextSpan {
  readonly start: number
  readonly end: number
}

/** A window of `text` placed `leadIn` characters before `anchor`, with the `matches` inside it. */
export const snippetAround = (text: string, matches: ReadonlyArray<TextSpan>, anchor: number) => {
  let start = 0
  let end = text.length
  if (text.length > snippetLength) {
    start = Math.max(0, anchor - leadIn)
    if (start > 0) {
      const space = text.indexOf(" ", start)
      start = space === -1 || space > anchor ? start : space + 1
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

/** A window of the paragraph around its first match, with the matched words' offsets in it. */
export const snippetOf = (text: string, terms: ReadonlySet<string>) => {
  const matches = wordSpansOf(text, terms)
  return snippetAround(text, matches, matches[0]?.start ?? 0)
}

// The snippet of a search hit: a window of the text around its first match, cut at spaces, with
// the offsets of the matched words in it for highlighting.
import { wordSpans } from "../SearchOptions.js"

const snippetLength = 280

/** A window of the paragraph around its first match, with the matched words' offsets in it. */
export const snippetOf = (text: string, terms: ReadonlySet<string>) => {
  const spans = wordSpans(text)
  const matches = spans.filter((span) => terms.has(span.term))
  let start = 0
  let end = text.length
  if (text.length > snippetLength) {
    const first = matches[0]?.start ?? 0
    start = Math.max(0, first - 100)
    if (start > 0) {
      const space = text.indexOf(" ", start)
      start = space === -1 || space > first ? start : space + 1
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

// Feed text fields carry HTML. The catalog stores text: descriptions as plain text, show notes as
// light Markdown that keeps their links and list structure readable.
import { decodeEntities } from "./transcripts/ParsedTranscript.js"

const collapse = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

/** Consecutive list items belong on consecutive lines. */
const tightenLists = (markdown: string) => markdown.replace(/^(- .*)\n\n+(?=- )/gm, "$1\n")

/** HTML to plain text: tags dropped, block ends become line breaks, entities decoded. */
export const htmlToText = (html: string): string =>
  collapse(
    decodeEntities(
      html
        .replace(/<br\s*\/?>/gi, "\n")
        .replace(/<\/(p|div|li|h[1-6])>/gi, "\n")
        .replace(/<[^>]*>/g, "")
    )
  )

const linkToMarkdown = (_: string, href: string, text: string) => {
  const label = text.replace(/<[^>]*>/g, "").trim()
  return label === "" ? href : `[${label}](${href})`
}

/** HTML to Markdown for show notes: paragraphs, list items and links survive. */
export const htmlToMarkdown = (html: string): string =>
  tightenLists(
    collapse(
      decodeEntities(
        html
          .replace(/<a\s[^>]*href\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a>/gi, linkToMarkdown)
          .replace(/<li[^>]*>/gi, "\n- ")
          .replace(/<br\s*\/?>/gi, "\n")
          .replace(/<\/(p|div|ul|ol|h[1-6])>/gi, "\n\n")
          .replace(/<[^>]*>/g, "")
      )
    )
  )

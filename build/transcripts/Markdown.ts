// Markdown transcripts in the style of the Changelog archive: blank-line separated paragraphs,
// `**Speaker:**` where the speaker changes (later paragraphs continue that speaker), and escaped
// timestamps `\[hh:mm:ss\]` or `\[mm:ss\]` at the start of some paragraphs.
import * as Either from "effect/Either"
import {
  type ParsedParagraph,
  type ParsedTranscript,
  sourceLines,
  squash,
  type TranscriptSyntaxError
} from "./ParsedTranscript.js"

/** `**Name:**`, `**Name: **` or `**Name**:` at the start of a paragraph. */
const speakerPrefix = /^\*\*([^*\n]{1,80}?)(?:\s*:\s*\*\*|\*\*\s*:)\s*/
/** A bracketed timestamp at the start of a paragraph, escaped (`\[04:15\]`) or not. */
const timestampPrefix = /^\\?\[(\d{1,3}(?::\d{1,2}(?:\.\d+)?){1,3})\\?\]\s*/

/**
 * Seconds of `mm:ss`, `hh:mm:ss` or `hh:mm:ss:ff` (frames, ignored), each with an optional fraction.
 * Real archives hold all of these, and minutes past 59 when there is no hour part (`105:30`).
 */
export const parseStamp = (stamp: string): number | undefined => {
  const parts = stamp.split(":").map(Number)
  const [a = 0, b = 0, c = 0] = parts
  if (parts.some((part) => !Number.isFinite(part))) return undefined
  if (parts.length === 2) return b < 60 ? a * 60 + b : undefined
  return b < 60 && c < 60 ? a * 3600 + b * 60 + Math.floor(c) : undefined
}

/** Markdown escapes and emphasis do not belong in the text a reader or a search sees. */
const plainText = (markdown: string) =>
  squash(
    markdown
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1")
      .replace(/(\*\*|__)(.+?)\1/g, "$2")
      .replace(/\[([^\]]+)\]\((?:[^)\s]+)\)/g, "$1")
  )

export const parseMarkdown = (source: string): Either.Either<ParsedTranscript, TranscriptSyntaxError> => {
  const lines = sourceLines(source)
  const paragraphs: Array<ParsedParagraph> = []
  let speaker: string | null = null
  let i = 0
  while (i < lines.length) {
    while (i < lines.length && (lines[i] ?? "").trim() === "") i++
    if (i >= lines.length) break
    const block: Array<string> = []
    while (i < lines.length && (lines[i] ?? "").trim() !== "") block.push((lines[i++] ?? "").trim())
    // Headings carry section breaks ("# **Break:** \[14:22\]"): read them like any paragraph.
    let text = block.join("\n").replace(/^#{1,6}\s+/, "")
    const prefix = speakerPrefix.exec(text)
    if (prefix?.[1]) {
      speaker = squash(prefix[1])
      text = text.slice(prefix[0].length)
    }
    let startSeconds: number | null = null
    const stamp = timestampPrefix.exec(text)
    const seconds = stamp?.[1] === undefined ? undefined : parseStamp(stamp[1])
    // A bracket that does not read as a time stays in the text rather than failing the transcript.
    if (stamp && seconds !== undefined) {
      startSeconds = seconds
      text = text.slice(stamp[0].length)
    }
    const plain = plainText(text)
    if (plain !== "") paragraphs.push({ speaker, startSeconds, endSeconds: null, text: plain })
  }
  return Either.right({ format: "markdown", paragraphs })
}

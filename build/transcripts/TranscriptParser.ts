// Chooses the parser for a transcript from its declared MIME type, or from its file extension when
// the type is missing or generic.
import * as Either from "effect/Either"
import type { TranscriptFormat } from "../../src/catalog/domain/Transcript.js"
import { parseMarkdown } from "./Markdown.js"
import { type ParsedTranscript, TranscriptSyntaxError } from "./ParsedTranscript.js"
import { parsePlainText } from "./PlainText.js"
import { parsePodcastJson } from "./PodcastJson.js"
import { parseSrt } from "./Srt.js"
import { parseWebVtt } from "./WebVtt.js"

const byMimeType: Record<string, TranscriptFormat> = {
  "text/vtt": "vtt",
  "application/x-subrip": "srt",
  "application/srt": "srt",
  "text/srt": "srt",
  "application/json": "json",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/plain": "text"
}

const byExtension: Record<string, TranscriptFormat> = {
  vtt: "vtt",
  srt: "srt",
  json: "json",
  md: "markdown",
  markdown: "markdown",
  txt: "text"
}

/** The format of a transcript, or undefined when neither its type nor its name says. */
export const transcriptFormat = (
  mimeType: string | undefined,
  path: string
): TranscriptFormat | undefined => {
  const mime = mimeType?.split(";")[0]?.trim().toLowerCase()
  const fromMime = mime === undefined ? undefined : byMimeType[mime]
  if (fromMime !== undefined) return fromMime
  const extension = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase()
  return extension === undefined ? undefined : byExtension[extension]
}

const parsers: Record<
  TranscriptFormat,
  (source: string) => Either.Either<ParsedTranscript, TranscriptSyntaxError>
> = {
  vtt: parseWebVtt,
  srt: parseSrt,
  json: parsePodcastJson,
  markdown: parseMarkdown,
  text: parsePlainText
}

/** Where NUL, or the replacement character that decoding puts for bytes that are not UTF-8, first occurs. */
const firstNonText = (source: string): number => {
  const nul = source.indexOf(String.fromCharCode(0))
  const replacement = source.indexOf("\uFFFD")
  return nul === -1 ? replacement : replacement === -1 ? nul : Math.min(nul, replacement)
}

/**
 * Parses a transcript. Binary or non-UTF-8 input, and a transcript without any text, are errors
 * too: neither can be served or searched.
 */
export const parseTranscript = (
  format: TranscriptFormat,
  source: string
): Either.Either<ParsedTranscript, TranscriptSyntaxError> => {
  const bad = firstNonText(source)
  if (bad !== -1) {
    const line = source.slice(0, bad).split("\n").length
    return Either.left(new TranscriptSyntaxError({ line, message: "not UTF-8 text" }))
  }
  return Either.flatMap(parsers[format](source), (parsed) =>
    parsed.paragraphs.length === 0
      ? Either.left(new TranscriptSyntaxError({ line: undefined, message: "the transcript has no text" }))
      : Either.right(parsed)
  )
}

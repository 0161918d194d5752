// Plain-text transcripts: paragraphs separated by blank lines, with no speakers or timings.
import * as Either from "effect/Either"
import { type ParsedTranscript, sourceLines, squash, type TranscriptSyntaxError } from "./ParsedTranscript.js"

export const parsePlainText = (source: string): Either.Either<ParsedTranscript, TranscriptSyntaxError> =>
  Either.right({
    format: "text",
    paragraphs: sourceLines(source)
      .join("\n")
      .split(/\n\s*\n/)
      .map(squash)
      .filter((text) => text !== "")
      .map((text) => ({ speaker: null, startSeconds: null, endSeconds: null, text }))
  })

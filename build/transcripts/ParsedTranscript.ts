// What every transcript parser produces, and the error it reports for input it cannot read.
import * as Data from "effect/Data"
import type { TranscriptFormat } from "../../src/catalog/domain/Transcript.js"

export interface ParsedParagraph {
  readonly speaker: string | null
  readonly startSeconds: number | null
  readonly endSeconds: number | null
  readonly text: string
}

export interface ParsedTranscript {
  readonly format: TranscriptFormat
  readonly paragraphs: ReadonlyArray<ParsedParagraph>
}

/** A transcript that cannot be read, with the 1-based line where the problem is, when known. */
export class TranscriptSyntaxError extends Data.TaggedError("TranscriptSyntaxError")<{
  readonly line: number | undefined
  readonly message: string
}> {}

/** Normalises line endings and drops a byte-order mark, so parsers see `\n`-separated lines. */
export const sourceLines = (source: string): Array<string> =>
  source
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")

/** Collapses runs of whitespace, as speech text has no meaningful layout inside a paragraph. */
export const squash = (text: string): string => text.replace(/\s+/g, " ").trim()

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " }

/** Decodes the character references that caption formats use. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return entities[name.toLowerCase()] ?? whole
  })

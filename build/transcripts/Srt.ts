// SubRip captions: numbered cues with `hh:mm:ss,ttt` timings. SRT has no speaker markup; by the
// common convention a cue that starts with `Name: ` changes the speaker and one without continues it.
import * as Either from "effect/Either"
import {
  decodeEntities,
  type ParsedTranscript,
  sourceLines,
  squash,
  TranscriptSyntaxError
} from "./ParsedTranscript.js"
import { type Cue, cuesToParagraphs, parseCueTime } from "./TimedCues.js"

const timingLine = /^(\S+)\s+-->\s+(\S+)(?:\s.*)?$/
/** One to four capitalised words (letters, apostrophes, dots, hyphens) before a colon. */
const speakerPrefix = /^(\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*){0,3}):\s+/u

export const parseSrt = (source: string): Either.Either<ParsedTranscript, TranscriptSyntaxError> => {
  const lines = sourceLines(source)
  const cues: Array<Cue> = []
  let speaker: string | null = null
  let i = 0
  while (i < lines.length) {
    while (i < lines.length && (lines[i] ?? "").trim() === "") i++
    if (i >= lines.length) break
    const blockStart = i
    const block: Array<string> = []
    while (i < lines.length && (lines[i] ?? "").trim() !== "") block.push(lines[i++] ?? "")
    // The sequence number is customary but some writers omit it.
    const hasNumber = /^\d+$/.test((block[0] ?? "").trim())
    const timingIndex = hasNumber ? 1 : 0
    const line = blockStart + timingIndex + 1
    const timing = timingLine.exec(block[timingIndex] ?? "")
    if (!timing) {
      return Either.left(
        new TranscriptSyntaxError({
          line,
          message: `expected a cue timing line "hh:mm:ss,mmm --> hh:mm:ss,mmm"`
        })
      )
    }
    const start = parseCueTime(timing[1] ?? "", ",")
    const end = parseCueTime(timing[2] ?? "", ",")
    if (start === undefined || end === undefined) {
      return Either.left(
        new TranscriptSyntaxError({ line, message: `malformed cue timing "${block[timingIndex]}"` })
      )
    }
    if (end < start) {
      return Either.left(new TranscriptSyntaxError({ line, message: "a cue ends before it starts" }))
    }
    let text = squash(
      decodeEntities(
        block
          .slice(timingIndex + 1)
          .join(" ")
          .replace(/<[^>]*>/g, "")
      )
    )
    const prefix = speakerPrefix.exec(text)
    if (prefix?.[1]) {
      speaker = prefix[1]
      text = text.slice(prefix[0].length)
    }
    cues.push({ speaker, startSeconds: start, endSeconds: end, text })
  }
  if (cues.length === 0) {
    return Either.left(new TranscriptSyntaxError({ line: undefined, message: "no cues found" }))
  }
  return Either.right({ format: "srt", paragraphs: cuesToParagraphs(cues) })
}

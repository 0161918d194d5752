// WebVTT captions: cues with timings, speakers given as voice spans (`<v Name>…</v>`).
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
const voiceSpan = /<v(?:\.[^\s>]+)*\s+([^>]+)>/

/** The speaker of a cue (from its first voice span) and its text without markup. */
const cueText = (lines: ReadonlyArray<string>): { speaker: string | null; text: string } => {
  const raw = lines.join(" ")
  const voice = voiceSpan.exec(raw)
  const text = decodeEntities(raw.replace(/<[^>]*>/g, ""))
  return { speaker: voice?.[1] ? squash(decodeEntities(voice[1])) : null, text: squash(text) }
}

export const parseWebVtt = (source: string): Either.Either<ParsedTranscript, TranscriptSyntaxError> => {
  const lines = sourceLines(source)
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? "")) {
    return Either.left(
      new TranscriptSyntaxError({ line: 1, message: "a WebVTT file must start with WEBVTT" })
    )
  }
  const cues: Array<Cue> = []
  let i = 1
  while (i < lines.length) {
    // Skip the blank lines between blocks.
    while (i < lines.length && (lines[i] ?? "").trim() === "") i++
    if (i >= lines.length) break
    const blockStart = i
    const block: Array<string> = []
    while (i < lines.length && (lines[i] ?? "").trim() !== "") block.push(lines[i++] ?? "")
    const first = block[0] ?? ""
    if (/^(NOTE|STYLE|REGION)(\s|$)/.test(first)) continue
    // A cue may start with an identifier line (which cannot contain "-->") before its timing line.
    const second = block[1] ?? ""
    const timingIndex = first.includes("-->") || (!second.includes("-->") && /^\d/.test(first)) ? 0 : 1
    const timing = timingLine.exec(block[timingIndex] ?? "")
    const line = blockStart + timingIndex + 1
    if (!timing) {
      return Either.left(
        new TranscriptSyntaxError({ line, message: `expected a cue timing line "start --> end"` })
      )
    }
    const start = parseCueTime(timing[1] ?? "", ".")
    const end = parseCueTime(timing[2] ?? "", ".")
    if (start === undefined || end === undefined) {
      return Either.left(
        new TranscriptSyntaxError({ line, message: `malformed cue timing "${block[timingIndex]}"` })
      )
    }
    if (end < start) {
      return Either.left(new TranscriptSyntaxError({ line, message: "a cue ends before it starts" }))
    }
    const { speaker, text } = cueText(block.slice(timingIndex + 1))
    cues.push({ speaker, startSeconds: start, endSeconds: end, text })
  }
  return Either.right({ format: "vtt", paragraphs: cuesToParagraphs(cues) })
}

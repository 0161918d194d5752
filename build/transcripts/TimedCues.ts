// Timed captions (WebVTT, SRT, Podcasting 2.0 JSON) arrive as short cues; readers and search want
// paragraphs. Consecutive cues of one speaker are joined until the speaker changes, the audio
// pauses, or the paragraph has grown long and a sentence ends.
import type { ParsedParagraph } from "./ParsedTranscript.js"

export interface Cue {
  readonly speaker: string | null
  readonly startSeconds: number
  readonly endSeconds: number
  readonly text: string
}

/** A silence at least this long starts a new paragraph. */
const pauseSeconds = 2
/** Past this many words a paragraph ends at the next sentence end. */
const paragraphWords = 120

const wordCount = (text: string) => (text === "" ? 0 : text.split(" ").length)

export const cuesToParagraphs = (cues: ReadonlyArray<Cue>): Array<ParsedParagraph> => {
  const paragraphs: Array<ParsedParagraph> = []
  let current:
    | { speaker: string | null; start: number; end: number; parts: Array<string>; words: number }
    | undefined
  const flush = () => {
    if (current && current.parts.length > 0) {
      paragraphs.push({
        speaker: current.speaker,
        startSeconds: current.start,
        endSeconds: current.end,
        text: current.parts.join(" ")
      })
    }
    current = undefined
  }
  for (const cue of cues) {
    if (cue.text === "") continue
    const last = current?.parts[current.parts.length - 1] ?? ""
    const startsNew =
      current === undefined ||
      cue.speaker !== current.speaker ||
      cue.startSeconds - current.end >= pauseSeconds ||
      (current.words >= paragraphWords && /[.?!…]["'”’)]?$/.test(last))
    if (startsNew) {
      flush()
      current = { speaker: cue.speaker, start: cue.startSeconds, end: cue.endSeconds, parts: [], words: 0 }
    }
    if (current) {
      current.parts.push(cue.text)
      current.words += wordCount(cue.text)
      current.end = Math.max(current.end, cue.endSeconds)
    }
  }
  flush()
  return paragraphs
}

/** `hh:mm:ss.ttt`, `mm:ss.ttt` (WebVTT) or `hh:mm:ss,ttt` (SRT) to seconds; undefined when malformed. */
export const parseCueTime = (text: string, fraction: "." | ","): number | undefined => {
  const pattern =
    fraction === "."
      ? /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/
      : /^(\d{1,3}):([0-5]\d):([0-5]\d),(\d{3})$/
  const match = pattern.exec(text.trim())
  if (!match) return undefined
  const [, h, m, s, ms] = match
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000
}

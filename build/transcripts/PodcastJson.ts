// Podcasting 2.0 JSON transcripts: `{ version, segments: [{ speaker?, startTime, endTime, body }] }`.
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { type ParsedTranscript, squash, TranscriptSyntaxError } from "./ParsedTranscript.js"
import { cuesToParagraphs } from "./TimedCues.js"

const Seconds = Schema.Number.pipe(Schema.finite(), Schema.nonNegative())

const Segment = Schema.Struct({
  speaker: Schema.optional(Schema.String),
  startTime: Seconds,
  endTime: Seconds,
  body: Schema.String
})

const PodcastTranscript = Schema.Struct({
  version: Schema.optional(Schema.String),
  segments: Schema.Array(Segment)
})

const decode = Schema.decodeUnknownEither(PodcastTranscript, { errors: "first" })

/** The 1-based line of a character offset, for JSON syntax errors reported by position. */
const lineOf = (source: string, offset: number) => source.slice(0, offset).split("\n").length

export const parsePodcastJson = (source: string): Either.Either<ParsedTranscript, TranscriptSyntaxError> => {
  let json: unknown
  try {
    json = JSON.parse(source.replace(/^\uFEFF/, ""))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const position = /position (\d+)/.exec(message)
    return Either.left(
      new TranscriptSyntaxError({
        line: position?.[1] === undefined ? undefined : lineOf(source, Number(position[1])),
        message: `not valid JSON: ${message}`
      })
    )
  }
  return decode(json).pipe(
    Either.mapLeft(
      (error) =>
        new TranscriptSyntaxError({
          line: undefined,
          message: `not a Podcasting 2.0 JSON transcript: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
        })
    ),
    Either.flatMap((transcript) => {
      const bad = transcript.segments.findIndex((segment) => segment.endTime < segment.startTime)
      if (bad !== -1) {
        return Either.left(
          new TranscriptSyntaxError({ line: undefined, message: `segment ${bad} ends before it starts` })
        )
      }
      const cues = transcript.segments.map((segment) => ({
        speaker:
          segment.speaker === undefined || segment.speaker.trim() === "" ? null : squash(segment.speaker),
        startSeconds: segment.startTime,
        endSeconds: segment.endTime,
        text: squash(segment.body)
      }))
      return Either.right<ParsedTranscript>({ format: "json", paragraphs: cuesToParagraphs(cues) })
    })
  )
}

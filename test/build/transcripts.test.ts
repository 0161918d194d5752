// Every transcript format the build accepts: speakers, timestamps and paragraphs come out right,
// and unreadable input is reported with its line.
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { parseMarkdown, parseStamp } from "../../build/transcripts/Markdown.js"
import type { ParsedTranscript, TranscriptSyntaxError } from "../../build/transcripts/ParsedTranscript.js"
import { parsePlainText } from "../../build/transcripts/PlainText.js"
import { parsePodcastJson } from "../../build/transcripts/PodcastJson.js"
import { parseSrt } from "../../build/transcripts/Srt.js"
import { parseTranscript, transcriptFormat } from "../../build/transcripts/TranscriptParser.js"
import { parseWebVtt } from "../../build/transcripts/WebVtt.js"

const ok = (result: Either.Either<ParsedTranscript, TranscriptSyntaxError>): ParsedTranscript => {
  if (Either.isLeft(result))
    throw new Error(`expected success, got: line ${result.left.line}: ${result.left.message}`)
  return result.right
}

const failure = (result: Either.Either<ParsedTranscript, TranscriptSyntaxError>): TranscriptSyntaxError => {
  if (Either.isRight(result)) throw new Error("expected a syntax error")
  return result.left
}

describe("WebVTT", () => {
  const source = [
    "WEBVTT",
    "",
    "NOTE recorded in the lamp room",
    "",
    "intro-1",
    "00:00:01.000 --> 00:00:04.500",
    "<v Ada Marsh>Welcome back to the show.</v>",
    "",
    "00:00:04.600 --> 00:00:07.000",
    "<v Ada Marsh>Today: lenses.",
    "",
    "00:00:07.100 --> 00:00:09.250",
    "<v.loud Tom Reyes>Glad to be here &amp; ready.</v>",
    "",
    "00:00:15.000 --> 00:00:18.000",
    "<v Tom Reyes><i>After a pause</i>, more.</v>",
    ""
  ].join("\n")

  it("joins consecutive cues of one speaker and keeps their timing", () => {
    const parsed = ok(parseWebVtt(source))
    expect(parsed.format).toBe("vtt")
    expect(parsed.paragraphs[0]).toEqual({
      speaker: "Ada Marsh",
      startSeconds: 1,
      endSeconds: 7,
      text: "Welcome back to the show. Today: lenses."
    })
  })

  it("reads voice spans with classes, decodes entities and strips markup", () => {
    const parsed = ok(parseWebVtt(source))
    expect(parsed.paragraphs[1]).toEqual({
      speaker: "Tom Reyes",
      startSeconds: 7.1,
      endSeconds: 9.25,
      text: "Glad to be here & ready."
    })
  })

  it("starts a new paragraph after a pause even for the same speaker", () => {
    const parsed = ok(parseWebVtt(source))
    expect(parsed.paragraphs).toHaveLength(3)
    expect(parsed.paragraphs[2]).toMatchObject({
      speaker: "Tom Reyes",
      startSeconds: 15,
      text: "After a pause, more."
    })
  })

  it("accepts mm:ss.ttt timings and cues without a voice", () => {
    const parsed = ok(parseWebVtt("WEBVTT\n\n01:02.000 --> 01:05.000\nNo voice here.\n"))
    expect(parsed.paragraphs).toEqual([
      { speaker: null, startSeconds: 62, endSeconds: 65, text: "No voice here." }
    ])
  })

  it("rejects a file without the WEBVTT header on line 1", () => {
    expect(failure(parseWebVtt("00:00:01.000 --> 00:00:02.000\n<v A>x</v>\n"))).toMatchObject({ line: 1 })
  })

  it("reports a malformed timing with its line", () => {
    const error = failure(
      parseWebVtt(
        "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A>x</v>\n\n00:00:0x.000 --> 00:00:05.000\n<v A>y</v>\n"
      )
    )
    expect(error.line).toBe(6)
    expect(error.message).toContain("malformed cue timing")
  })

  it("reports a cue that ends before it starts", () => {
    expect(failure(parseWebVtt("WEBVTT\n\n00:00:05.000 --> 00:00:02.000\n<v A>x</v>\n")).message).toContain(
      "ends before"
    )
  })
})

describe("SRT", () => {
  const source = [
    "1",
    "00:00:01,000 --> 00:00:03,000",
    "Ada Marsh: The fog came in at dawn.",
    "",
    "2",
    "00:00:03,100 --> 00:00:05,000",
    "It stayed until noon.",
    "",
    "3",
    "00:00:05,200 --> 00:00:08,000",
    "Tom O'Neil-Reyes: And the horn",
    "sounded every thirty seconds.",
    ""
  ].join("\r\n")

  it("takes the speaker from a Name: prefix and continues it on cues without one", () => {
    const parsed = ok(parseSrt(source))
    expect(parsed.format).toBe("srt")
    expect(parsed.paragraphs).toEqual([
      {
        speaker: "Ada Marsh",
        startSeconds: 1,
        endSeconds: 5,
        text: "The fog came in at dawn. It stayed until noon."
      },
      {
        speaker: "Tom O'Neil-Reyes",
        startSeconds: 5.2,
        endSeconds: 8,
        text: "And the horn sounded every thirty seconds."
      }
    ])
  })

  it("reports a malformed timing line with its line number", () => {
    const error = failure(
      parseSrt("1\n00:00:01,000 --> 00:00:02,000\nA: x\n\n2\n00:00:02.000 --> 00:00:03,000\ny\n")
    )
    expect(error.line).toBe(6)
  })

  it("reports a block without a timing line", () => {
    expect(failure(parseSrt("1\nhello there\n")).line).toBe(2)
  })

  it("rejects a file with no cues", () => {
    expect(failure(parseSrt("\n\n")).message).toBe("no cues found")
  })
})

describe("Podcasting 2.0 JSON", () => {
  it("merges segments into paragraphs by speaker", () => {
    const parsed = ok(
      parsePodcastJson(
        JSON.stringify({
          version: "1.0.0",
          segments: [
            { speaker: "Ada", startTime: 0, endTime: 2.5, body: "Hello" },
            { speaker: "Ada", startTime: 2.5, endTime: 4, body: "there." },
            { speaker: "Tom", startTime: 4.2, endTime: 6, body: "Hi!" },
            { startTime: 6.1, endTime: 7, body: "(music)" }
          ]
        })
      )
    )
    expect(parsed.paragraphs).toEqual([
      { speaker: "Ada", startSeconds: 0, endSeconds: 4, text: "Hello there." },
      { speaker: "Tom", startSeconds: 4.2, endSeconds: 6, text: "Hi!" },
      { speaker: null, startSeconds: 6.1, endSeconds: 7, text: "(music)" }
    ])
  })

  it("reports invalid JSON with the line of the error", () => {
    const error = failure(parsePodcastJson('{\n  "segments": [\n    { "body": "x", }\n  ]\n}'))
    expect(error.message).toContain("not valid JSON")
    expect(error.line).toBe(3)
  })

  it("reports a segment that breaks the format", () => {
    const error = failure(
      parsePodcastJson(JSON.stringify({ segments: [{ startTime: "zero", endTime: 1, body: "x" }] }))
    )
    expect(error.message).toContain("not a Podcasting 2.0 JSON transcript")
    expect(error.message).toContain("startTime")
  })
})

describe("Markdown", () => {
  const source = [
    "**Ada Marsh:** Welcome to the show. \\[laughter\\]",
    "",
    "She keeps talking in a second paragraph.",
    "",
    "**Tom Reyes:** \\[04:15\\] The lens arrived in *crates*.",
    "",
    "# **Break:** \\[14:22\\]",
    "",
    "**Ada Marsh**: \\[01:02:03.09\\] Back after the break.",
    "",
    "**Jerod Santo: ** \\[105:30\\] Long episode. \\[00:20:18:08\\] inline stays.",
    ""
  ].join("\n")
  const parsed = ok(parseMarkdown(source))

  it("reads speakers and lets unlabelled paragraphs continue the last one", () => {
    expect(parsed.paragraphs.slice(0, 2)).toEqual([
      { speaker: "Ada Marsh", startSeconds: null, endSeconds: null, text: "Welcome to the show. [laughter]" },
      {
        speaker: "Ada Marsh",
        startSeconds: null,
        endSeconds: null,
        text: "She keeps talking in a second paragraph."
      }
    ])
  })

  it("takes escaped timestamps as the paragraph's start and removes them from the text", () => {
    expect(parsed.paragraphs[2]).toEqual({
      speaker: "Tom Reyes",
      startSeconds: 255,
      endSeconds: null,
      text: "The lens arrived in *crates*."
    })
  })

  it("reads the speaker styles of real archives and drops empty break markers", () => {
    expect(parsed.paragraphs.slice(3)).toEqual([
      { speaker: "Ada Marsh", startSeconds: 3723, endSeconds: null, text: "Back after the break." },
      {
        speaker: "Jerod Santo",
        startSeconds: 6330,
        endSeconds: null,
        text: "Long episode. [00:20:18:08] inline stays."
      }
    ])
  })

  it("reads every timestamp shape found in real archives", () => {
    expect(parseStamp("04:15")).toBe(255)
    expect(parseStamp("1:02:03")).toBe(3723)
    expect(parseStamp("01:02:03.09")).toBe(3723)
    expect(parseStamp("00:20:18:08")).toBe(1218)
    expect(parseStamp("105:30")).toBe(6330)
    expect(parseStamp("10:75")).toBeUndefined()
  })
})

describe("plain text", () => {
  it("splits paragraphs on blank lines and joins wrapped lines", () => {
    expect(ok(parsePlainText("First line\nwrapped.\n\n\nSecond.\n")).paragraphs).toEqual([
      { speaker: null, startSeconds: null, endSeconds: null, text: "First line wrapped." },
      { speaker: null, startSeconds: null, endSeconds: null, text: "Second." }
    ])
  })
})

describe("choosing and checking a format", () => {
  it("prefers the declared MIME type and falls back to the extension", () => {
    expect(transcriptFormat("text/vtt", "a.txt")).toBe("vtt")
    expect(transcriptFormat("application/x-subrip", "a")).toBe("srt")
    expect(transcriptFormat("application/json; charset=utf-8", "a")).toBe("json")
    expect(transcriptFormat(undefined, "t/12.md")).toBe("markdown")
    expect(transcriptFormat("application/octet-stream", "t/12.txt")).toBe("text")
    expect(transcriptFormat("application/pdf", "t/12.pdf")).toBeUndefined()
  })

  it("rejects a transcript without text", () => {
    expect(failure(parseTranscript("markdown", "\n\n  \n")).message).toBe("the transcript has no text")
  })

  it("rejects bytes that are not UTF-8 text, naming the line", () => {
    expect(failure(parseTranscript("text", "fine\nbroken \uFFFD here\n"))).toMatchObject({
      line: 2,
      message: "not UTF-8 text"
    })
  })
})

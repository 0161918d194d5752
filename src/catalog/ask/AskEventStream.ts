// The ask answer as server-sent events: one event per part, its data the part's JSON encoding. A
// failure becomes an `error` event carrying the error envelope and ends the stream; when the client
// goes away the response's fiber is interrupted and the stream simply stops.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type BadRequest, internalErrorEnvelope, toEnvelope } from "../../http/ApiError.js"
import { TranscriptHit } from "../domain/Collections.js"
import { Episode } from "../domain/Episode.js"
import type { AskEvent } from "./Ask.js"
import { AskComposition, AskDone, AskIntent } from "./AskAnswer.js"

const encodeIntent = Schema.encodeSync(AskIntent)
const encodeEpisode = Schema.encodeSync(Episode)
const encodeHit = Schema.encodeSync(TranscriptHit)
const encodeComposition = Schema.encodeSync(AskComposition)
const encodeDone = Schema.encodeSync(AskDone)

/** One event; JSON never holds a raw newline, so the data fits on one `data:` line. */
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

const frameOf = (event: AskEvent): string => {
  switch (event._tag) {
    case "intent":
      return frame("intent", encodeIntent(event.intent))
    case "episode":
      return frame("episode", encodeEpisode(event.episode))
    case "hit":
      return frame("hit", encodeHit(event.hit))
    case "answer":
      return frame("answer", encodeComposition(event.composition))
    case "done":
      return frame("done", encodeDone(event.done))
  }
}

const errorFrames = (cause: Cause.Cause<BadRequest>): Stream.Stream<string> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return Stream.make(frame("error", toEnvelope(failure.value)))
  // Interrupted: the client has gone and nobody reads another event.
  if (Cause.isInterruptedOnly(cause)) return Stream.empty
  return Stream.fromEffect(
    Effect.as(Effect.logError("ask event stream failed", cause), frame("error", internalErrorEnvelope))
  )
}

export const eventStreamResponse = (events: Stream.Stream<AskEvent, BadRequest>) =>
  HttpServerResponse.stream(
    events.pipe(Stream.map(frameOf), Stream.catchAllCause(errorFrames), Stream.encodeText),
    {
      contentType: "text/event-stream",
      // Proxies must pass each event on as it comes, not buffer the response.
      headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
    }
  )

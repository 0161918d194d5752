// The ask endpoints as a group of the catalog's HttpApi, so /openapi.json documents them: POST /ask
// with a JSON body and GET /ask?q=, both answering JSON, or server-sent events for
// `Accept: text/event-stream`. The document lists only the JSON body and says the event stream in
// words: a second media type beside it makes generated clients type the answer as a union (or as
// `unknown`), so JSON callers could not read `answer` (docs/decisions/ask-openapi-media-types.md).
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { BadRequest, errorDoc } from "../../http/ApiError.js"
import { AskAnswer } from "./AskAnswer.js"
import { AskParams, AskRequest } from "./AskRequest.js"

const eventStreamDescription =
  "When the request's Accept lists `text/event-stream` before (or without) `application/json`, server-sent " +
  "events (`text/event-stream`) are sent instead of JSON: the events `intent` (AskIntent), `episode` " +
  "(an Episode, once per episode), `hit` (a TranscriptHit, once per hit), `answer` (AskComposition: the answer " +
  "and its citations) and `done` (AskDone: how many of each were sent), each with JSON data; `error` (the error " +
  "envelope) ends the stream instead when the question cannot be answered."

const description =
  "Answers a question in plain language from the catalog alone, with no outside model: it recognises episode " +
  "numbers, seasons, hosts and guests, one picked episode (the first, latest, longest or shortest), the fact the " +
  "question asks about the show (`intent.fact`: who hosts it, who the guests were, which episode, how long, when " +
  "it came out, how many episodes or seasons, which episodes a person is in) and topic words. A fact is answered " +
  "from the episode records; a topic by searching episodes and transcripts and composing an extractive answer. " +
  "Every sentence ends with `[n]`, the 1-based index of its citation; a named episode or season that does not " +
  "exist is said not to exist. " +
  eventStreamDescription

/** Says in the 200 response what it is, and that an event stream replaces it when asked for. */
const withEventStream = OpenApi.annotations({
  transform: (operation) => {
    const responses = (operation.responses ?? {}) as Record<string, object>
    return {
      ...operation,
      responses: {
        ...responses,
        "200": {
          ...responses["200"],
          description: `The answer (AskAnswer) as JSON. ${eventStreamDescription}`
        }
      }
    }
  }
})

export class AskGroup extends HttpApiGroup.make("ask")
  .add(
    HttpApiEndpoint.post("post", "/ask")
      .setPayload(AskRequest)
      .addSuccess(AskAnswer)
      .addError(errorDoc(BadRequest))
      .annotate(OpenApi.Summary, "Ask a question about the podcast (JSON or server-sent events)")
      .annotate(OpenApi.Description, description)
      .annotateContext(withEventStream)
  )
  .add(
    HttpApiEndpoint.get("get", "/ask")
      .setUrlParams(AskParams)
      .addSuccess(AskAnswer)
      .addError(errorDoc(BadRequest))
      .annotate(OpenApi.Summary, "Ask a question in the query string (JSON or server-sent events)")
      .annotate(OpenApi.Description, description)
      .annotateContext(withEventStream)
  ) {}

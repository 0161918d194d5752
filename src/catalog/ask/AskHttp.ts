// The handlers of the ask group: JSON by default (GET answers as a prepared response, with ETag
// and 304 like every catalog GET), server-sent events when the client asks for text/event-stream.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { BadRequest, NotAcceptable } from "../../http/ApiError.js"
import { respondPrepared } from "../../http/PreparedHttp.js"
import { prepareJson } from "../../http/PreparedResponse.js"
import { cacheControl } from "../Catalog.js"
import { CatalogApi } from "../http/CatalogApi.js"
import { Ask, type AskService } from "./Ask.js"
import { AskAnswer } from "./AskAnswer.js"
import { eventStreamResponse } from "./AskEventStream.js"
import type { AskRequest } from "./AskRequest.js"

/** Events when the client lists text/event-stream before (or without) application/json. */
export const wantsEventStream = (accept: string | undefined) => {
  if (accept === undefined) return false
  const events = accept.indexOf("text/event-stream")
  const json = accept.indexOf("application/json")
  return events !== -1 && (json === -1 || events < json)
}

const encodeAnswer = Schema.encodeSync(AskAnswer)

type Answered = Effect.Effect<
  HttpServerResponse.HttpServerResponse | AskAnswer,
  BadRequest | NotAcceptable,
  HttpServerRequest.HttpServerRequest
>

const respond = (ask: AskService, request: AskRequest, method: "GET" | "POST"): Answered =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (http): Answered => {
    if (wantsEventStream(http.headers.accept)) return Effect.succeed(eventStreamResponse(ask.events(request)))
    const answer = ask.answer(request)
    if (Either.isLeft(answer)) return Effect.fail(answer.left)
    return method === "GET"
      ? respondPrepared(prepareJson(JSON.stringify(encodeAnswer(answer.right)), cacheControl.collection))
      : Effect.succeed(answer.right)
  })

export const AskHandlersLive = HttpApiBuilder.group(CatalogApi, "ask", (handlers) =>
  Effect.map(Ask, (ask) =>
    handlers
      .handle("post", ({ payload }) => respond(ask, payload, "POST"))
      .handle("get", ({ urlParams }) =>
        respond(
          ask,
          urlParams.limit === undefined
            ? { question: urlParams.q }
            : { question: urlParams.q, limit: urlParams.limit },
          "GET"
        )
      )
  )
)

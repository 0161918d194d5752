// The RPC procedures as the server runs them. RpcServer decodes payloads itself and answers one
// that does not decode with a defect carrying the schema's error text: neither typed nor meant for
// clients. So the server serves a twin of CatalogRpcs whose payloads arrive undecoded, and each
// handler decodes with the procedure's own schema, failing with a typed BadRequest (the REST
// message: "limit: must be an integer from 1 to 50"). Results and errors use the same schemas.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Rpc from "@effect/rpc/Rpc"
import * as RpcGroup from "@effect/rpc/RpcGroup"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { badRequestFromParseError } from "../../http/ErrorResponse.js"
import { Ask } from "../ask/Ask.js"
import { AskRequest } from "../ask/AskRequest.js"
import { CatalogAdmission } from "../CatalogAdmission.js"
import { CatalogReads } from "../CatalogReads.js"
import { EpisodeRequest, EpisodeSearchRequest, TranscriptSearchRequest } from "../CatalogRequests.js"
import * as Procedures from "./CatalogRpcs.js"

/** The same procedure, taking its payload as it came. */
const undecoded = <
  const Tag extends string,
  P extends Schema.Schema.Any,
  S extends Schema.Schema.Any,
  E extends Schema.Schema.All
>(
  rpc: Rpc.Rpc<Tag, P, S, E>
) => Rpc.make(rpc._tag, { payload: Schema.Unknown, success: rpc.successSchema, error: rpc.errorSchema })

export class CatalogRpcsServed extends RpcGroup.make(
  undecoded(Procedures.SearchEpisodes),
  undecoded(Procedures.GetEpisode),
  undecoded(Procedures.SearchTranscripts),
  undecoded(Procedures.GetTranscript),
  undecoded(Procedures.Ask)
).middleware(Procedures.CatalogRateLimited) {}

const decoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(schema, { errors: "all" })
  return (payload: unknown) => Effect.mapError(decode(payload), badRequestFromParseError)
}

export const CatalogRpcHandlersLive = CatalogRpcsServed.toLayer(
  Effect.gen(function* () {
    const reads = yield* CatalogReads
    const ask = yield* Ask
    const episodeSearch = decoder(EpisodeSearchRequest)
    const episodeRequest = decoder(EpisodeRequest)
    const transcriptSearch = decoder(TranscriptSearchRequest)
    const askRequest = decoder(AskRequest)
    return {
      SearchEpisodes: (payload) => Effect.flatMap(episodeSearch(payload), reads.searchEpisodes),
      GetEpisode: (payload) => Effect.flatMap(episodeRequest(payload), ({ slug }) => reads.episode(slug)),
      SearchTranscripts: (payload) => Effect.flatMap(transcriptSearch(payload), reads.searchTranscripts),
      GetTranscript: (payload) =>
        Effect.flatMap(episodeRequest(payload), ({ slug }) => reads.transcript(slug)),
      Ask: (payload) => Effect.flatMap(askRequest(payload), ask.answer)
    }
  })
)

/**
 * Admits each procedure call at one request of the caller's budget, through the catalog's one
 * `admit`. Handlers run with the HTTP request's context (RpcServer merges it in), which is where
 * the caller's address comes from.
 */
export const CatalogRateLimitedLive = Layer.effect(
  Procedures.CatalogRateLimited,
  Effect.map(
    CatalogAdmission,
    (admission) => () =>
      Effect.flatMap(Effect.serviceOption(HttpServerRequest.HttpServerRequest), (request) =>
        admission.admit(Option.match(request, { onNone: () => "unknown", onSome: admission.client }))
      )
  )
)

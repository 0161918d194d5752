// The catalog as Effect RPC procedures, for TypeScript services: the REST reads and ask, with the
// same Schema classes as payloads, results and typed errors. This group is what clients build
// their typed client from (`@podcast-platform/catalog-client`); the server serves a twin of it that takes
// payloads undecoded (CatalogRpcServer.ts), so that a bad payload is a typed BadRequest.
import * as Rpc from "@effect/rpc/Rpc"
import * as RpcGroup from "@effect/rpc/RpcGroup"
import * as RpcMiddleware from "@effect/rpc/RpcMiddleware"
import * as Schema from "effect/Schema"
import { BadRequest, NotFound, TooManyRequests } from "../../http/ApiError.js"
import { AskAnswer } from "../ask/AskAnswer.js"
import { AskRequest } from "../ask/AskRequest.js"
import { EpisodeRequest, EpisodeSearchRequest, TranscriptSearchRequest } from "../CatalogRequests.js"
import { EpisodePage, TranscriptHitPage } from "../domain/Collections.js"
import { EpisodeDetail } from "../domain/Episode.js"
import { TranscriptDetail } from "../domain/Transcript.js"

/** Every procedure spends from the caller's per-minute budget, shared with REST, MCP and ask. */
export class CatalogRateLimited extends RpcMiddleware.Tag<CatalogRateLimited>()("CatalogRateLimited", {
  failure: TooManyRequests
}) {}

/** `GET /v1/episodes`: newest first without `query`, by relevance with it. */
export const SearchEpisodes = Rpc.make("SearchEpisodes", {
  payload: EpisodeSearchRequest,
  success: EpisodePage,
  error: BadRequest
})

/** `GET /v1/episodes/{slug}`. */
export const GetEpisode = Rpc.make("GetEpisode", {
  payload: EpisodeRequest,
  success: EpisodeDetail,
  error: Schema.Union(BadRequest, NotFound)
})

/** `GET /v1/transcripts/search`. */
export const SearchTranscripts = Rpc.make("SearchTranscripts", {
  payload: TranscriptSearchRequest,
  success: TranscriptHitPage,
  error: BadRequest
})

/** `GET /v1/transcripts/{slug}`: the complete transcript; NotFound when the episode has none. */
export const GetTranscript = Rpc.make("GetTranscript", {
  payload: EpisodeRequest,
  success: TranscriptDetail,
  error: Schema.Union(BadRequest, NotFound)
})

/** `POST /ask`. */
export const Ask = Rpc.make("Ask", {
  payload: AskRequest,
  success: AskAnswer,
  error: BadRequest
})

export class CatalogRpcs extends RpcGroup.make(
  SearchEpisodes,
  GetEpisode,
  SearchTranscripts,
  GetTranscript,
  Ask
).middleware(CatalogRateLimited) {}

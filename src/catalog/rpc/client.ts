// The typed client of the catalog's RPC endpoint, exported by the package as
// `podcast-platform/client`: a TypeScript service gets `CatalogClient` and calls the procedures
// with the catalog's own types. Every failure is typed: BadRequest (also for arguments the types
// allow but the contract does not, such as `limit: 0`, refused before anything is sent), NotFound,
// TooManyRequests, and RpcClientError when the service cannot be reached.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as RpcClient from "@effect/rpc/RpcClient"
import type { RpcClientError } from "@effect/rpc/RpcClientError"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { BadRequest, NotFound, TooManyRequests } from "../../http/ApiError.js"
import { badRequestFromParseError } from "../../http/ErrorResponse.js"
import type { AskAnswer } from "../ask/AskAnswer.js"
import { AskRequest } from "../ask/AskRequest.js"
import { EpisodeRequest, EpisodeSearchRequest, TranscriptSearchRequest } from "../CatalogRequests.js"
import type { EpisodePage, TranscriptHitPage } from "../domain/Collections.js"
import type { EpisodeDetail } from "../domain/Episode.js"
import type { TranscriptDetail } from "../domain/Transcript.js"
import { CatalogRpcs } from "./CatalogRpcs.js"

export { BadRequest, NotFound, TooManyRequests } from "../../http/ApiError.js"
export { AskAnswer, AskIntent, Citation } from "../ask/AskAnswer.js"
export { AskRequest } from "../ask/AskRequest.js"
export { EpisodeRequest, EpisodeSearchRequest, TranscriptSearchRequest } from "../CatalogRequests.js"
export { EpisodePage, TranscriptHit, TranscriptHitPage } from "../domain/Collections.js"
export { Episode, EpisodeDetail } from "../domain/Episode.js"
export { Transcript, TranscriptDetail } from "../domain/Transcript.js"
export { CatalogRpcs }

/** What every call can fail with besides its own errors. */
export type CallError = BadRequest | TooManyRequests | RpcClientError

export interface CatalogClientService {
  /** `GET /v1/episodes`: newest first without `query`, by relevance with it; pages of `limit` with `cursor`. */
  readonly SearchEpisodes: (request: EpisodeSearchRequest) => Effect.Effect<EpisodePage, CallError>
  /** `GET /v1/episodes/{slug}`. */
  readonly GetEpisode: (request: EpisodeRequest) => Effect.Effect<EpisodeDetail, NotFound | CallError>
  /** `GET /v1/transcripts/search`. */
  readonly SearchTranscripts: (
    request: TranscriptSearchRequest
  ) => Effect.Effect<TranscriptHitPage, CallError>
  /** `GET /v1/transcripts/{slug}`: NotFound when there is no such episode or it has no transcript. */
  readonly GetTranscript: (request: EpisodeRequest) => Effect.Effect<TranscriptDetail, NotFound | CallError>
  /** `POST /ask`. */
  readonly Ask: (request: AskRequest) => Effect.Effect<AskAnswer, CallError>
}

export class CatalogClient extends Context.Tag("CatalogClient")<CatalogClient, CatalogClientService>() {
  /**
   * The client for the service whose RPC endpoint is `url` (e.g. `http://127.0.0.1:8080/rpc`),
   * over fetch with JSON serialization, as the server speaks it.
   */
  static readonly layer = (options: { readonly url: string }) =>
    Layer.scoped(CatalogClient, makeCatalogClient).pipe(
      Layer.provide(RpcClient.layerProtocolHttp({ url: options.url })),
      Layer.provide([FetchHttpClient.layer, RpcSerialization.layerJson])
    )
}

/**
 * Checks a request against its schema before sending: the RPC client would otherwise stop with a
 * defect when a value its types allow is outside the contract. The message is the server's.
 */
const checked =
  <P, I, A, E>(schema: Schema.Schema<P, I>, call: (request: P) => Effect.Effect<A, E>) =>
  (request: P): Effect.Effect<A, E | BadRequest> =>
    Effect.flatMap(
      Effect.mapError(Schema.validate(schema, { errors: "all" })(request), badRequestFromParseError),
      call
    )

export const makeCatalogClient = Effect.map(
  RpcClient.make(CatalogRpcs),
  (rpc): CatalogClientService => ({
    SearchEpisodes: checked(EpisodeSearchRequest, (request) => rpc.SearchEpisodes(request)),
    GetEpisode: checked(EpisodeRequest, (request) => rpc.GetEpisode(request)),
    SearchTranscripts: checked(TranscriptSearchRequest, (request) => rpc.SearchTranscripts(request)),
    GetTranscript: checked(EpisodeRequest, (request) => rpc.GetTranscript(request)),
    Ask: checked(AskRequest, (request) => rpc.Ask(request))
  })
)

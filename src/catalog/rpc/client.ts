// The typed client of the catalog's RPC endpoint, published as the package
// `@podcast-platform/catalog-client`: packages/catalog-client bundles this module and what it
// imports, so it must import nothing but effect and @effect/* (its peers). A TypeScript service gets
// `CatalogClient` and calls the procedures with the catalog's own types, all derived from the
// `CatalogRpcs` group (payloads, results, errors), so a procedure is declared once. Every failure is
// typed: BadRequest (also for arguments the types allow but the contract does not, such as
// `limit: 0`, refused before anything is sent), NotFound, TooManyRequests, and RpcClientError when
// the service cannot be reached.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as Rpc from "@effect/rpc/Rpc"
import * as RpcClient from "@effect/rpc/RpcClient"
import type { RpcClientError } from "@effect/rpc/RpcClientError"
import type * as RpcGroup from "@effect/rpc/RpcGroup"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { BadRequest, TooManyRequests } from "../../http/ApiError.js"
import { badRequestFromParseError } from "../../http/ErrorResponse.js"
import {
  Ask,
  CatalogRpcs,
  GetEpisode,
  GetTranscript,
  SearchEpisodes,
  SearchTranscripts
} from "./CatalogRpcs.js"

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

type Procedure = RpcGroup.Rpcs<typeof CatalogRpcs>

/**
 * Each procedure of `CatalogRpcs` as a method named by its tag: its payload in, its success out,
 * failing with its own errors or a `CallError`.
 */
export type CatalogClientService = {
  readonly [P in Procedure as P["_tag"]]: (
    request: Rpc.Payload<P>
  ) => Effect.Effect<Rpc.Success<P>, Rpc.Error<P> | CallError>
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
 * A procedure's call, with the request first checked against the procedure's payload schema: the
 * RPC client would otherwise stop with a defect when a value its types allow is outside the
 * contract. The message is the server's.
 */
const checked =
  <P, I, A, E>(
    procedure: { readonly payloadSchema: Schema.Schema<P, I> },
    call: (request: P) => Effect.Effect<A, E>
  ) =>
  (request: P): Effect.Effect<A, E | BadRequest> =>
    Effect.flatMap(
      Effect.mapError(
        Schema.validate(procedure.payloadSchema, { errors: "all" })(request),
        badRequestFromParseError
      ),
      call
    )

export const makeCatalogClient = Effect.map(
  RpcClient.make(CatalogRpcs),
  (rpc): CatalogClientService => ({
    SearchEpisodes: checked(SearchEpisodes, (request) => rpc.SearchEpisodes(request)),
    GetEpisode: checked(GetEpisode, (request) => rpc.GetEpisode(request)),
    SearchTranscripts: checked(SearchTranscripts, (request) => rpc.SearchTranscripts(request)),
    GetTranscript: checked(GetTranscript, (request) => rpc.GetTranscript(request)),
    Ask: checked(Ask, (request) => rpc.Ask(request))
  })
)

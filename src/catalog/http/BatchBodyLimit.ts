// The batch's own body limit (catalog-extensions §9: over 64 KiB is 413), lower than the server's
// general one. Declared lengths are refused before reading (on the fast path too); a body sent
// without a length, chunked, is read here under the batch's limit before the payload is decoded,
// which then reuses the text already read.
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { bodyTooLarge, errorDoc, PayloadTooLarge } from "../../http/ApiError.js"
import { isMaxBytesExceeded } from "../../http/ErrorResponse.js"
import { maxBatchBodyBytes } from "./Batch.js"

export class BatchBodyLimit extends HttpApiMiddleware.Tag<BatchBodyLimit>()("BatchBodyLimit", {
  failure: errorDoc(PayloadTooLarge)
}) {}

const tooLarge = bodyTooLarge(maxBatchBodyBytes)

export const BatchBodyLimitLive = Layer.succeed(
  BatchBodyLimit,
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    // A declared length over the limit is refused unread: reading it would stop at the limit by
    // destroying the request, socket and all, before the 413 is written.
    const declared = request.headers["content-length"]
    if (declared !== undefined && Number(declared) > maxBatchBodyBytes) return Effect.fail(tooLarge)
    return request.text.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(maxBatchBodyBytes)),
      Effect.asVoid,
      // Any other failure to read is the payload decoder's to report, as for every other endpoint.
      Effect.catchAll((error) => (isMaxBytesExceeded(error.cause) ? Effect.fail(tooLarge) : Effect.void))
    )
  })
)

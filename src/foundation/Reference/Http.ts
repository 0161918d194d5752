// Handlers of the `reference` group: the OpenAPI document and the Scalar reference page, each
// prepared once (compressed, with an ETag) and answered with content negotiation and 304s.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { apiReferenceResponse, openApiResponse } from "../../http/ApiReference.js"
import { respondPrepared } from "../../http/PreparedHttp.js"
import { FoundationApi } from "../FoundationApi.js"
import { FoundationConfig } from "../FoundationConfig.js"

export const ReferenceHttp = HttpApiBuilder.group(FoundationApi, "reference", (handlers) =>
  Effect.gen(function* () {
    const document = openApiResponse(FoundationApi, (yield* FoundationConfig).publicOrigin)
    // The page is large to render: the first visitor pays for it, everyone after gets the bytes.
    const page = yield* Effect.cached(apiReferenceResponse(FoundationApi, "Foundation"))
    return handlers
      .handle("openapi", () => respondPrepared(document))
      .handle("docs", () => Effect.flatMap(page, respondPrepared))
  })
)

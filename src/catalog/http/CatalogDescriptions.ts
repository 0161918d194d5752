// The catalog's published description: /openapi.json and the /docs reference page. They live
// outside the API (so they are not part of its own document) but are admitted like every catalog
// read; the OpenAPI document is also in the route table, so the fast path answers it.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type { ApiError } from "../../http/ApiError.js"
import { apiReferenceResponse, openApiResponse } from "../../http/ApiReference.js"
import { errorResponse } from "../../http/ErrorResponse.js"
import { respondPrepared } from "../../http/PreparedHttp.js"
import type { PreparedResponse } from "../../http/PreparedResponse.js"
import { CatalogAdmission } from "../CatalogAdmission.js"
import { CatalogConfig } from "../CatalogConfig.js"
import { CatalogApi } from "./CatalogApi.js"

/** The descriptions answered from bytes prepared at start-up, by path, for the origin served. */
export const preparedDescriptions = (
  origin: string
): ReadonlyArray<readonly [`/${string}`, PreparedResponse]> => [
  ["/openapi.json", openApiResponse(CatalogApi, origin)]
]

/** Both descriptions on the router, each admitted first. */
export const DescriptionRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const admission = yield* CatalogAdmission
    const { publicOrigin } = yield* CatalogConfig
    // The page is large to render; the first visitor pays for it, everyone after gets the cached bytes.
    const reference = yield* Effect.cached(apiReferenceResponse(CatalogApi, "Podcast catalog"))
    // Outside the API's middleware, so contract errors are rendered here.
    const admitted = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError, R>) =>
      Effect.zipRight(admission.admitRequest(1), effect).pipe(
        Effect.catchAll((error) => Effect.succeed(errorResponse(error)))
      )
    for (const [path, prepared] of preparedDescriptions(publicOrigin)) {
      yield* router.add("GET", path, admitted(respondPrepared(prepared)))
    }
    yield* router.add("GET", "/docs", admitted(Effect.flatMap(reference, respondPrepared)))
  })
)

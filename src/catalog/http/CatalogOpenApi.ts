// What the catalog's OpenAPI document says beyond the endpoint definitions: title, version, and the
// fixes applied to the derived document (see src/http/OpenApiDocument.ts).
import * as OpenApi from "@effect/platform/OpenApi"
import { refineOpenApi, serviceLicense } from "../../http/OpenApiDocument.js"
import { unmeteredPaths } from "../CatalogAdmission.js"

export const documentCatalogApi = OpenApi.annotations({
  title: "Podcast catalog",
  version: "1.0.0",
  license: serviceLicense,
  // The reference page calls the API on its own origin; /openapi.json names PUBLIC_ORIGIN instead.
  servers: [{ url: "/", description: "This service" }],
  description:
    "A public, read-only podcast catalog served from a prebuilt snapshot: episode and transcript search and detail, " +
    "with strong ETags and conditional requests. Errors use one envelope: { defined, code, status, message, data? }.",
  transform: (spec) =>
    withoutRateLimit(
      refineOpenApi(spec, {
        wildcardPaths: { "/snapshot/*": "/snapshot/{path}" },
        cachedGets: true
      })
    )
})

type Json = Record<string, unknown>

/** The rate-limit middleware documents 429 on every operation; probes never spend the budget. */
const withoutRateLimit = (spec: Json): Json => {
  const paths = spec.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>
  for (const path of unmeteredPaths) {
    for (const operation of Object.values(paths[path] ?? {})) delete operation.responses?.["429"]
  }
  return spec
}

// What the catalog's OpenAPI document says beyond the endpoint definitions: title, version, and the
// fixes applied to the derived document (see src/http/OpenApiDocument.ts).
import * as OpenApi from "@effect/platform/OpenApi"
import { refineOpenApi, serviceLicense } from "../../http/OpenApiDocument.js"

export const documentCatalogApi = OpenApi.annotations({
  title: "Podcast catalog",
  version: "1.0.0",
  license: serviceLicense,
  // The paths are the service's own, from its origin.
  servers: [{ url: "/", description: "This service" }],
  description:
    "A public, read-only podcast catalog served from a prebuilt snapshot: episode and transcript search and detail, " +
    "with strong ETags and conditional requests. Errors use one envelope: { defined, code, status, message, data? }.",
  transform: (spec) =>
    refineOpenApi(spec, {
      wildcardPaths: { "/snapshot/*": "/snapshot/{path}" },
      cachedGets: true
    })
})

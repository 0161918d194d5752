// The two OpenAPI documents as the real server serves them, and the service that serves them: both
// APIs on one server (the fixture podcast's catalog and the foundation on a fresh PGlite).
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { freshDataDir } from "../../foundation/support/Backends.js"
import { foundationServer } from "../../foundation/support/FoundationClient.js"
import { buildFixtureSnapshot } from "../../support/CatalogTestServer.js"
import { request } from "../../support/TestServer.js"

export type Json = Record<string, unknown>

export const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Where each API serves its document. */
export const documentPaths = { catalog: "/openapi.json", foundation: "/api/v1/openapi.json" } as const
export type DocumentName = keyof typeof documentPaths
export const documentNames = Object.keys(documentPaths) as ReadonlyArray<DocumentName>

/** The service with both APIs; `settings` are extra environment variables. */
export const bothApisServer = (settings: Record<string, string> = {}) =>
  Layer.unwrapEffect(
    Effect.map(buildFixtureSnapshot(), (catalogDir) =>
      foundationServer(
        Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir })),
        { CATALOG_ENABLED: "true", CATALOG_DIR: catalogDir, ...settings }
      )
    )
  ).pipe(Layer.orDie)

/** Both documents, fetched from the server. */
export const servedDocuments = Effect.gen(function* () {
  const documents: Partial<Record<DocumentName, Json>> = {}
  for (const name of documentNames) {
    const response = yield* request(documentPaths[name])
    if (response.status !== 200 || !isJson(response.json)) {
      return yield* Effect.dieMessage(`${documentPaths[name]} answered ${response.status}`)
    }
    documents[name] = response.json
  }
  return documents as Record<DocumentName, Json>
})

export interface Operation {
  readonly document: DocumentName
  readonly path: string
  readonly method: string
  readonly id: string
  readonly operation: Json
  /** The statuses the document lists for it. */
  readonly statuses: ReadonlySet<string>
}

const operationMethods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

/** Every operation of a document. */
export const operationsOf = (name: DocumentName, document: Json): ReadonlyArray<Operation> =>
  Object.entries(isJson(document.paths) ? document.paths : {}).flatMap(([path, item]) =>
    Object.entries(isJson(item) ? item : {}).flatMap(([method, operation]) =>
      operationMethods.has(method) && isJson(operation)
        ? [
            {
              document: name,
              path,
              method,
              id: String(operation.operationId),
              operation,
              statuses: new Set(Object.keys(isJson(operation.responses) ? operation.responses : {}))
            }
          ]
        : []
    )
  )

// The one table of the catalog's reads answered from prepared responses. `preparedOperations` maps
// each endpoint of CatalogApi (group.endpoint) to the operation that answers it; everything else
// about a route (method, path, the schemas of its parameters) is read from the endpoint itself by
// reflecting the API. The HttpApi handlers, the node fast path and the batch all route through this,
// so a new read is an endpoint in CatalogApi and its operation here.
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ParseError } from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as FindMyWay from "find-my-way-ts"
import type { ApiError } from "../../http/ApiError.js"
import { badRequestFromParseError } from "../../http/ErrorResponse.js"
import { makeGetRouter } from "../../http/GetRouter.js"
import type { PreparedResponse } from "../../http/PreparedResponse.js"
import { routeTemplate } from "../../http/RouteTable.js"
import { CatalogConfig } from "../CatalogConfig.js"
import { makeLruCache } from "../LruCache.js"
import { CatalogApi } from "./CatalogApi.js"
import { preparedDescriptions } from "./CatalogDescriptions.js"
import { CatalogOperations, type CatalogOperationsService } from "./CatalogOperations.js"

type CatalogGroups =
  typeof CatalogApi extends HttpApi.HttpApi<string, infer Groups, infer _E, infer _R> ? Groups : never
type Endpoints<Group extends string> = HttpApiGroup.HttpApiGroup.EndpointsWithName<CatalogGroups, Group>

/** What an operation receives: the path and query parameters its endpoint's schemas decoded. */
export type OperationRequest<Endpoint extends HttpApiEndpoint.HttpApiEndpoint.Any> = Omit<
  HttpApiEndpoint.HttpApiEndpoint.Request<Endpoint>,
  "request" | "payload" | "headers"
>

/** Answers one endpoint from a prepared response, or fails with one of the errors it documents. */
export type PreparedOperation<Endpoint extends HttpApiEndpoint.HttpApiEndpoint.Any> = (
  request: OperationRequest<Endpoint>
) => Either.Either<PreparedResponse, HttpApiEndpoint.HttpApiEndpoint.Error<Endpoint>>

/** The groups of CatalogApi whose every endpoint answers from a prepared response. */
export type PreparedGroup = "health" | "episodes" | "transcripts" | "snapshot"

/** An operation for every endpoint of every prepared group: the compiler asks for a new one's. */
export type PreparedOperations = {
  readonly [Group in PreparedGroup]: {
    readonly [Name in HttpApiEndpoint.HttpApiEndpoint.Name<Endpoints<Group>>]: PreparedOperation<
      HttpApiEndpoint.HttpApiEndpoint.WithName<Endpoints<Group>, Name>
    >
  }
}

/** The one mapping from an endpoint of CatalogApi to the operation that answers it. */
export const preparedOperations = (operations: CatalogOperationsService): PreparedOperations => ({
  health: {
    get: () => Either.right(operations.health)
  },
  episodes: {
    list: ({ urlParams }) => operations.listEpisodes(urlParams),
    get: ({ path }) => operations.episode(path.slug)
  },
  transcripts: {
    search: ({ urlParams }) => operations.searchTranscripts(urlParams),
    get: ({ path }) => operations.transcript(path.slug)
  },
  snapshot: {
    manifest: () => Either.right(operations.manifest),
    file: ({ path }) => operations.file(path["*"])
  }
})

/** A query string as the router parses it: repeated names give arrays. */
export type QueryParams = Readonly<Record<string, string | ReadonlyArray<string>>>

/** A route of the table: decodes what the router found with its endpoint's schemas, then answers. */
export interface PreparedRoute {
  (
    params: Readonly<Record<string, string | undefined>>,
    query: QueryParams
  ): Either.Either<PreparedResponse, ApiError>
  /** Its path as a route template (`/v1/episodes/{slug}`), which traces and metrics name it by. */
  readonly route: string
}

const preparedRoute = (
  path: `/${string}`,
  answer: (
    params: Readonly<Record<string, string | undefined>>,
    query: QueryParams
  ) => Either.Either<PreparedResponse, ApiError>
): readonly [`/${string}`, PreparedRoute] => [path, Object.assign(answer, { route: routeTemplate(path) })]

export interface CatalogRouteTableService {
  readonly operations: PreparedOperations
  /**
   * The route a GET or HEAD of `url` (path and query string) takes, found as the HttpApi's own
   * router finds it, so both split and decode a URL identically.
   */
  readonly find: (url: string) => FindMyWay.FindResult<PreparedRoute> | undefined
}

export class CatalogRouteTable extends Context.Tag("CatalogRouteTable")<
  CatalogRouteTable,
  CatalogRouteTableService
>() {}

/** The operation of a reflected endpoint, typed loosely: its request is whatever its schemas decode. */
type ReflectedOperation = (request: {
  readonly path?: unknown
  readonly urlParams?: unknown
}) => Either.Either<PreparedResponse, ApiError>

const noParameters = Either.void

/** The decoder of an endpoint's parameters, or one that finds none when it declares none. */
const decoderOf = <A, I>(schema: Option.Option<Schema.Schema<A, I>>) =>
  Option.match(schema, {
    onNone: () => (_: unknown) => noParameters,
    onSome: (schema) => Schema.decodeUnknownEither(schema)
  })

/** A path that ends in its one parameter (`/v1/episodes/:slug`), and that parameter's name. */
const oneParameter = /^[^:*]*:([A-Za-z0-9_]+)$/

/** How many decoded values of its parameter each such route keeps. */
export const decodedValuesKept = 1024

/**
 * The decoder of an endpoint's path parameters, remembering the values it decoded lately when the
 * path has one: decoding even a one-field struct through its schema allocates about 0.9 KB, most of
 * what the fast path allocates per request beyond node's own, and readers keep asking for the same
 * episodes. Decoding is a pure function of the value, so a remembered success is what decoding again
 * would give; failures are decoded every time and not kept.
 */
export const pathDecoderOf = <A, I>(
  path: string,
  schema: Option.Option<Schema.Schema<A, I>>
): ((params: Readonly<Record<string, string | undefined>>) => Either.Either<unknown, ParseError>) => {
  const decode = decoderOf(schema)
  const name = oneParameter.exec(path)?.[1]
  if (name === undefined) return decode
  const decoded = makeLruCache<Either.Either<unknown, ParseError>>(decodedValuesKept)
  return (params) => {
    const value = params[name]
    if (value === undefined) return decode(params)
    const known = decoded.get(value)
    if (known !== undefined) return known
    const result: Either.Either<unknown, ParseError> = decode(params)
    if (Either.isRight(result)) decoded.set(value, result)
    return result
  }
}

export const makeCatalogRouteTable = (
  operations: PreparedOperations,
  origin: string
): CatalogRouteTableService => {
  const routes: Array<readonly [`/${string}`, PreparedRoute]> = []
  // Reflection names endpoints by strings, so the typed mapping is read as a plain record here;
  // each operation then receives exactly what its own endpoint's schemas decoded.
  const byGroup: Readonly<Record<string, Readonly<Record<string, ReflectedOperation>> | undefined>> =
    operations as unknown as Record<string, Record<string, ReflectedOperation>>
  HttpApi.reflect(CatalogApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      const operation = byGroup[group.identifier]?.[endpoint.name]
      if (operation === undefined || endpoint.method !== "GET") return
      const decodePath = pathDecoderOf(endpoint.path, endpoint.pathSchema)
      const decodeQuery = decoderOf(endpoint.urlParamsSchema)
      // The HttpApi decodes the path before the query string, so the first complaint is the same.
      routes.push(
        preparedRoute(endpoint.path, (params, query) => {
          const path = decodePath(params)
          if (Either.isLeft(path)) return Either.left(badRequestFromParseError(path.left))
          const urlParams = decodeQuery(query)
          if (Either.isLeft(urlParams)) return Either.left(badRequestFromParseError(urlParams.left))
          return operation({ path: path.right, urlParams: urlParams.right })
        })
      )
    }
  })
  // The descriptions outside the API that answer prepared bytes (the OpenAPI document).
  for (const [path, prepared] of preparedDescriptions(origin))
    routes.push(preparedRoute(path, () => Either.right(prepared)))
  return { operations, find: makeGetRouter(routes).find }
}

export const CatalogRouteTableLive = Layer.effect(
  CatalogRouteTable,
  Effect.map(Effect.all([CatalogOperations, CatalogConfig]), ([operations, config]) =>
    makeCatalogRouteTable(preparedOperations(operations), config.publicOrigin)
  )
)

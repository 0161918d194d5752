// Field types shared by the foundation's resources and requests, with the contract's bounds.
import * as Schema from "effect/Schema"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Id } from "./Ids.js"
import { Text } from "./Text.js"

/** A pragmatic email check (one `@`, a dot in the domain, no spaces); the contract caps it at 254. */
export const Email = Text.pipe(
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "must be an email address" })
).annotations({
  jsonSchema: {
    format: "email",
    title: "Email address",
    description: `An email address, ${characters(0, 254)}.`
  },
  description: "An email address (at most 254 characters)"
})

/** A point in time, sent as an ISO 8601 string. */
export const Timestamp = Schema.Date.annotations({ jsonSchema: { type: "string", format: "date-time" } })

export const Role = Schema.Literal("owner", "admin", "member")
export type Role = typeof Role.Type

/** The foundation API's scopes: what an organization API token or an OAuth grant for /api/v1 may hold. */
export const Scope = Schema.Literal("organizations:read", "organizations:write")
export type Scope = typeof Scope.Type

/** The agent session's scopes (catalog-extensions §12): the organization's notebook (and the catalog). */
export const NotesScope = Schema.Literal("notes:read", "notes:write")
export type NotesScope = typeof NotesScope.Type

/**
 * What an OAuth grant may hold: the scopes of the resource it was issued for (the authorization
 * server checks `scope` against that resource's own list).
 */
export const GrantScope = Schema.Literal(
  "organizations:read",
  "organizations:write",
  "notes:read",
  "notes:write"
)
export type GrantScope = typeof GrantScope.Type

/** What each scope lets a bearer credential do, in words for people (the consent page, the document). */
export const scopeDescriptions: Record<Scope, string> = {
  "organizations:read": "See the organization's details: its name, company name, website, phone and address.",
  "organizations:write": "Change the organization's details."
}

export class Success extends Schema.Class<Success>("Success")({ success: Schema.Literal(true) }) {
  static readonly value = new Success({ success: true })
}

/** `{ items, nextCursor }`: both keys always present; `nextCursor` is null on the last page. */
export const Page = <Item extends Schema.Schema.Any>(item: Item) =>
  Schema.Struct({ items: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String) })

/** `?cursor=&limit=`: both optional, and an empty value means "not given" (contract §4). */
export const PageQuery = Schema.Struct({
  cursor: Schema.optional(
    Schema.Union(Schema.Literal(""), Id).pipe(
      documented("Cursor", "The previous page's nextCursor; empty or absent for the first page.")
    )
  ),
  limit: Schema.optional(
    Schema.Union(
      Schema.Literal(""),
      Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)).annotations({
        jsonSchema: {
          type: "integer",
          minimum: 1,
          maximum: 100,
          default: 50,
          title: "Page size",
          description: "Items per page: 1 to 100, 50 when not given."
        }
      })
    )
  )
})
export type PageQuery = typeof PageQuery.Type

export interface PageRequest {
  readonly cursor: string | undefined
  readonly limit: number
}

export const pageRequest = (query: PageQuery): PageRequest => ({
  cursor: query.cursor === undefined || query.cursor === "" ? undefined : query.cursor,
  limit: query.limit === undefined || query.limit === "" ? 50 : query.limit
})

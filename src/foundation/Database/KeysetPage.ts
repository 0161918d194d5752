// Keyset pagination shared by the foundation's lists: a page is fetched with one row more than
// asked, and the cursor is the position (creation time in ms, id) of the page's last row, opaque to
// clients (base64url). Paged tables store `created_at` at millisecond precision (migration 2), so
// the position round-trips exactly through a JavaScript Date and lists order by the indexed columns.
import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { InvalidCursor } from "../Domain/Errors.js"

export interface Position {
  readonly createdAt: Date
  readonly id: string
}

/** The largest time a JavaScript Date can hold, in ms either side of 1970. */
const MAX_DATE_MS = 8.64e15

export const encodeCursor = (position: Position): string =>
  Buffer.from(`${position.createdAt.getTime()}.${position.id}`).toString("base64url")

/** The position a cursor stands for; none when no cursor was given; 400 when it is not ours. */
export const decodeCursor = (
  cursor: string | undefined
): Effect.Effect<Option.Option<Position>, InvalidCursor> => {
  if (cursor === undefined) return Effect.succeed(Option.none())
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return Effect.fail(new InvalidCursor())
  const text = Buffer.from(cursor, "base64url").toString()
  const dot = text.indexOf(".")
  const millis = dot > 0 && /^\d+$/.test(text.slice(0, dot)) ? Number(text.slice(0, dot)) : Number.NaN
  // A time a Date cannot hold would reach the database as "Invalid Date": refuse it here.
  return Number.isSafeInteger(millis) && millis <= MAX_DATE_MS && dot < text.length - 1
    ? Effect.succeed(Option.some({ createdAt: new Date(millis), id: text.slice(dot + 1) }))
    : Effect.fail(new InvalidCursor())
}

/**
 * The condition selecting rows after `position` in a list ordered by `(created_at, id)` ascending
 * (`"after"`) or descending (`"before"`); `alias` qualifies the columns (e.g. `m.`).
 */
export const keysetCondition = (
  sql: SqlClient.SqlClient,
  position: Option.Option<Position>,
  direction: "after" | "before",
  alias = ""
): Fragment =>
  Option.match(position, {
    onNone: () => sql`TRUE`,
    onSome: ({ createdAt, id }) => {
      const columns = sql.literal(`(${alias}created_at, ${alias}id)`)
      return direction === "after"
        ? sql`${columns} > (${createdAt}::timestamptz, ${id})`
        : sql`${columns} < (${createdAt}::timestamptz, ${id})`
    }
  })

/** `{ items, nextCursor }` from rows fetched with `LIMIT limit + 1`. */
export const pageOf = <Row extends Position>(rows: ReadonlyArray<Row>, limit: number) => {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null }
}

/**
 * One page of a list: decodes the cursor (400 when it is not ours), fetches one row more than
 * asked after its position, and turns each row of the page into the item the client sees.
 */
export const readPage = <Row extends Position, Item, E, R>(
  page: { readonly cursor: string | undefined; readonly limit: number },
  fetch: (after: Option.Option<Position>, limit: number) => Effect.Effect<ReadonlyArray<Row>, E, R>,
  toItem: (row: Row) => Item
): Effect.Effect<
  { readonly items: ReadonlyArray<Item>; readonly nextCursor: string | null },
  E | InvalidCursor,
  R
> =>
  Effect.gen(function* () {
    const after = yield* decodeCursor(page.cursor)
    const { items, nextCursor } = pageOf(yield* fetch(after, page.limit + 1), page.limit)
    return { items: items.map(toItem), nextCursor }
  })

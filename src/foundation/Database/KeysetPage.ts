// Keyset pagination shared by the foundation's lists: a page is fetched with one row more than
// asked, and the cursor is the position (creation time in ms, id) of the page's last row, opaque to
// clients (base64url). Lists order by `date_trunc('milliseconds', created_at), id` so that the
// position round-trips exactly through a JavaScript Date.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { BadRequest } from "../../http/ApiError.js"

export interface Position {
  readonly createdAt: Date
  readonly id: string
}

export const encodeCursor = (position: Position): string =>
  Buffer.from(`${position.createdAt.getTime()}.${position.id}`).toString("base64url")

/** The position a cursor stands for; none when no cursor was given; 400 when it is not ours. */
export const decodeCursor = (
  cursor: string | undefined
): Effect.Effect<Option.Option<Position>, BadRequest> => {
  if (cursor === undefined) return Effect.succeed(Option.none())
  const text = Buffer.from(cursor, "base64url").toString()
  const dot = text.indexOf(".")
  const millis = Number(text.slice(0, dot))
  return dot > 0 && Number.isSafeInteger(millis) && dot < text.length - 1
    ? Effect.succeed(Option.some({ createdAt: new Date(millis), id: text.slice(dot + 1) }))
    : Effect.fail(new BadRequest({ message: "cursor: not a cursor returned by this list." }))
}

/** `{ items, nextCursor }` from rows fetched with `LIMIT limit + 1`. */
export const pageOf = <Row extends Position>(rows: ReadonlyArray<Row>, limit: number) => {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null }
}

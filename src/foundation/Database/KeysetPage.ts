// Keyset pagination shared by the foundation's lists: a page is fetched with one row more than
// asked, and the cursor is the position (creation time in ms, id) of the page's last row. Paged
// tables store `created_at` at millisecond precision (migration 2), so the position round-trips
// exactly through a JavaScript Date and lists order by the indexed columns.
//
// Cursors are opaque and signed (issue 14): base64url of a 128-bit HMAC-SHA256 tag followed by the
// position, the tag computed over the list the cursor belongs to (e.g. `members:<organizationId>`)
// and the position. A forged or altered cursor, or one from another list or organization, is 400.
// The key is FOUNDATION_CURSOR_SECRET when set; otherwise a random key kept in the database
// (`signing_keys`), created by the first instance that needs it, so every instance on the
// database accepts every other's cursors.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { InvalidCursor } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"

export interface Position {
  readonly createdAt: Date
  readonly id: string
}

/** The largest time a JavaScript Date can hold, in ms either side of 1970. */
const MAX_DATE_MS = 8.64e15
/** Bytes of the tag: 128 bits, far beyond guessing, and a cursor stays well under 160 characters. */
const TAG_BYTES = 16

/** The position a cursor's payload names, if it names one a Date can hold. */
const parsePosition = (text: string): Option.Option<Position> => {
  const dot = text.indexOf(".")
  const millis = dot > 0 && /^\d+$/.test(text.slice(0, dot)) ? Number(text.slice(0, dot)) : Number.NaN
  // A time a Date cannot hold would reach the database as "Invalid Date": refuse it here.
  return Number.isSafeInteger(millis) && millis <= MAX_DATE_MS && dot < text.length - 1
    ? Option.some({ createdAt: new Date(millis), id: text.slice(dot + 1) })
    : Option.none()
}

/** The key kept in the database, made by whichever instance asks first (concurrent starts agree). */
const storedKey = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT INTO signing_keys (name, key) VALUES ('page-cursors', ${randomBytes(32).toString("base64url")})
    ON CONFLICT (name) DO NOTHING`
  const rows = yield* sql<{ key: string }>`SELECT key FROM signing_keys WHERE name = 'page-cursors'`
  const key = rows[0]?.key
  return key === undefined ? yield* Effect.dieMessage("The page-cursor key vanished as it was made") : key
})

export class PageCursors extends Effect.Service<PageCursors>()("PageCursors", {
  effect: Effect.gen(function* () {
    const { cursorSecret } = yield* FoundationConfig
    const secret = Option.isSome(cursorSecret) ? Redacted.value(cursorSecret.value) : yield* storedKey
    // A key of its own for this one use, should the operator's secret ever sign something else too.
    const key = createHmac("sha256", secret).update("foundation list cursors").digest()
    const tag = (list: string, payload: Buffer) =>
      createHmac("sha256", key).update(list).update("\n").update(payload).digest().subarray(0, TAG_BYTES)

    /** The cursor of `position` in `list`. */
    const encode = (list: string, position: Position): string => {
      const payload = Buffer.from(`${position.createdAt.getTime()}.${position.id}`)
      return Buffer.concat([tag(list, payload), payload]).toString("base64url")
    }

    /** The position a cursor of `list` stands for; none when no cursor was given; 400 when not one. */
    const decode = (
      list: string,
      cursor: string | undefined
    ): Effect.Effect<Option.Option<Position>, InvalidCursor> => {
      if (cursor === undefined) return Effect.succeed(Option.none())
      if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return Effect.fail(new InvalidCursor())
      const bytes = Buffer.from(cursor, "base64url")
      // base64url decoding skips what it cannot read: only a cursor that re-encodes to itself is ours.
      if (bytes.length <= TAG_BYTES || bytes.toString("base64url") !== cursor) {
        return Effect.fail(new InvalidCursor())
      }
      const payload = bytes.subarray(TAG_BYTES)
      if (!timingSafeEqual(bytes.subarray(0, TAG_BYTES), tag(list, payload))) {
        return Effect.fail(new InvalidCursor())
      }
      return Option.match(parsePosition(payload.toString()), {
        onNone: () => Effect.fail(new InvalidCursor()),
        onSome: (position) => Effect.succeed(Option.some(position))
      })
    }

    /**
     * One page of `list` (which names the list and its owner, e.g. `members:<organizationId>`):
     * checks the cursor (400 when it is not this list's), fetches one row more than asked after its
     * position, and turns each row of the page into the item the client sees.
     */
    const readPage = <Row extends Position, Item, E, R>(
      list: string,
      page: { readonly cursor: string | undefined; readonly limit: number },
      fetch: (after: Option.Option<Position>, limit: number) => Effect.Effect<ReadonlyArray<Row>, E, R>,
      toItem: (row: Row) => Item
    ): Effect.Effect<
      { readonly items: ReadonlyArray<Item>; readonly nextCursor: string | null },
      E | InvalidCursor,
      R
    > =>
      Effect.gen(function* () {
        const after = yield* decode(list, page.cursor)
        const rows = yield* fetch(after, page.limit + 1)
        const items = rows.slice(0, page.limit)
        const last = items[items.length - 1]
        return {
          items: items.map(toItem),
          nextCursor: rows.length > page.limit && last !== undefined ? encode(list, last) : null
        }
      })

    return { encode, decode, readPage }
  })
}) {}

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

// Opaque page cursors bound to one query and one snapshot (catalog-extensions §2): a cursor from
// another query or another snapshot is refused, never silently applied. The payload is signed so a
// client cannot forge offsets into a different query.
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import * as Either from "effect/Either"
import { BadRequest } from "../http/ApiError.js"
import { maxCursorLength } from "./CatalogLimits.js"

export interface CursorCodec {
  /** A cursor for the page starting at `offset` of the query identified by `queryKey`. */
  readonly encode: (queryKey: string, offset: number) => string
  /** The offset a cursor points at, if it was made for this query on this snapshot. */
  readonly decode: (cursor: string, queryKey: string) => Either.Either<number, BadRequest>
}

const shortHash = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 16)

export const makeCursorCodec = (snapshotId: string, secret: string): CursorCodec => {
  const snapshot = snapshotId.slice(0, 16)
  const sign = (payload: string) =>
    createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22)
  const invalid = (message: string) => Either.left(new BadRequest({ message, data: { parameter: "cursor" } }))
  return {
    encode: (queryKey, offset) => {
      const payload = Buffer.from(
        JSON.stringify({ s: snapshot, q: shortHash(queryKey), o: offset })
      ).toString("base64url")
      return `${payload}.${sign(payload)}`
    },
    decode: (cursor, queryKey) => {
      const [payload, signature, ...rest] = cursor.split(".")
      if (
        payload === undefined ||
        signature === undefined ||
        rest.length > 0 ||
        cursor.length > maxCursorLength
      ) {
        return invalid("cursor is not a cursor this service issued")
      }
      let fields: { s?: unknown; q?: unknown; o?: unknown }
      try {
        fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
      } catch {
        return invalid("cursor is not a cursor this service issued")
      }
      if (typeof fields !== "object" || fields === null)
        return invalid("cursor is not a cursor this service issued")
      if (fields.s !== snapshot)
        return invalid("cursor was made on another snapshot of the catalog; start again without it")
      const expected = Buffer.from(sign(payload))
      const given = Buffer.from(signature)
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        return invalid("cursor is not a cursor this service issued")
      }
      if (fields.q !== shortHash(queryKey))
        return invalid("cursor belongs to another query; send it with the same q and session")
      if (typeof fields.o !== "number" || !Number.isInteger(fields.o) || fields.o < 0) {
        return invalid("cursor is not a cursor this service issued")
      }
      return Either.right(fields.o)
    }
  }
}

// Rows decoded by their schema once, not on every read of the same values. The hot reads return the
// same rows again and again (a credential's row on each of its requests, a page of members on each
// look at it), and decoding a row checks every column against its field's schema: for a page of 51
// members ≈ 58 µs of CPU and ≈ 270 KB of short-lived objects a request (bench/HISTORY.md, issue 15).
// Decoding is a pure function of the row's values, so a row whose columns all equal those of a row
// accepted before is accepted again as the same decoded value; any column that differs (a renamed
// member, a token's `stale` turning true) is decoded afresh. Refusals are never kept.
// Rows read as the text PostgreSQL sent (`TextRows`) are compared as that text, so a remembered row
// is not even parsed: for a page of 51 members that spares 51 timestamps parsed and 51 row objects
// built a request (bench/HISTORY.md, issue 15).
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { LRUCache } from "lru-cache"

/** How many rows each decoder remembers (by key; the least recently read goes first). */
const ROWS_REMEMBERED = 4096

/** Equal as the values a row's columns hold: primitives, dates, and JSON arrays and objects of them. */
export const sameValue = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime()
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b) || b instanceof Date) return false
  return sameRecord(a as Record<string, unknown>, b as Record<string, unknown>)
}

const sameRecord = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => {
  let count = 0
  for (const key in b) {
    if (!Object.hasOwn(b, key)) continue
    count++
    if (!Object.hasOwn(a, key) || !sameValue(a[key], b[key])) return false
  }
  for (const key in a) if (Object.hasOwn(a, key)) count--
  return count === 0
}

/**
 * The columns a decode reads: the encoded side's properties when it is a plain struct (a decode
 * ignores any other column, so only these need comparing), else undefined (compare every column).
 */
const columnsRead = (ast: AST.AST): ReadonlyArray<PropertyKey> | undefined => {
  const encoded = AST.encodedAST(ast)
  return AST.isTypeLiteral(encoded) && encoded.indexSignatures.length === 0
    ? encoded.propertySignatures.map((property) => property.name)
    : undefined
}

/** Equal in the columns a decode reads (a column that is absent differs from one that is undefined). */
const sameColumns = (
  columns: ReadonlyArray<PropertyKey>,
  a: Record<PropertyKey, unknown>,
  b: Record<PropertyKey, unknown>
): boolean => {
  for (const column of columns) {
    const x = a[column]
    const y = b[column]
    if (x === y) {
      if (x === undefined && Object.hasOwn(a, column) !== Object.hasOwn(b, column)) return false
    } else if (!sameValue(x, y)) {
      return false
    }
  }
  return true
}

/** A result's rows as PostgreSQL sent them, each made into the client's row object on demand. */
export interface TextRows {
  /** The columns' names, as the client's row objects are keyed. */
  readonly names: ReadonlyArray<string>
  /** Each row's columns as text (null for NULL). */
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>
  /** Row `index` parsed and keyed as the client would return it. */
  readonly object: (index: number) => Record<string, unknown>
}

interface Remembered<A> {
  readonly row: Record<string, unknown>
  /** The row's text and column names, when it was read as text. */
  readonly text: ReadonlyArray<string | null> | undefined
  readonly names: ReadonlyArray<string> | undefined
  readonly value: A
}

/** Equal element by element (strings and nulls). */
const sameTexts = (a: ReadonlyArray<string | null>, b: ReadonlyArray<string | null>): boolean => {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** A decoder of rows that remembers accepted ones under their `keyColumn`. */
export interface RowDecoder<A> {
  /** The first row, if any (as `SqlSchema.findOne` decodes it). */
  readonly first: (rows: ReadonlyArray<unknown>) => Effect.Effect<Option.Option<A>, ParseResult.ParseError>
  readonly all: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError>
  /** `first` of rows read as text; a row whose text is remembered is not parsed. */
  readonly firstText: (rows: TextRows) => Either.Either<Option.Option<A>, ParseResult.ParseError>
  /** `all` of rows read as text; a row whose text is remembered is not parsed. */
  readonly allText: (rows: TextRows) => Either.Either<ReadonlyArray<A>, ParseResult.ParseError>
}

export const rememberedRows = <A, I>(schema: Schema.Schema<A, I>, keyColumn: string): RowDecoder<A> => {
  const decode = Schema.decodeUnknownEither(schema)
  const remembered = new LRUCache<string, Remembered<A>>({ max: ROWS_REMEMBERED })
  const columns = columnsRead(schema.ast)
  const same =
    columns === undefined
      ? sameRecord
      : (a: Record<string, unknown>, b: Record<string, unknown>) => sameColumns(columns, a, b)
  /**
   * `row` decoded, or the value remembered under `key` when the row equals its remembered one; read
   * as `text` (with `names`), that is remembered beside it.
   */
  const decodeKeyed = (
    key: string,
    hit: Remembered<A> | undefined,
    row: Record<string, unknown>,
    text?: ReadonlyArray<string | null>,
    names?: ReadonlyArray<string>
  ): Either.Either<A, ParseResult.ParseError> => {
    if (hit !== undefined && same(hit.row, row)) {
      // Equal where the schema reads: the same value, now also under this text.
      if (text !== undefined && hit.text !== text) remembered.set(key, { ...hit, text, names })
      return Either.right(hit.value)
    }
    const decoded = decode(row)
    if (Either.isRight(decoded)) remembered.set(key, { row, text, names, value: decoded.right })
    return decoded
  }
  const decodeRow = (row: unknown): Either.Either<A, ParseResult.ParseError> => {
    const key =
      typeof row === "object" && row !== null ? (row as Record<string, unknown>)[keyColumn] : undefined
    if (typeof key !== "string") return decode(row)
    return decodeKeyed(key, remembered.get(key), row as Record<string, unknown>)
  }
  const decodeText = (
    rows: TextRows,
    index: number,
    keyIndex: number
  ): Either.Either<A, ParseResult.ParseError> => {
    const text = rows.rows[index] as ReadonlyArray<string | null>
    const key = keyIndex === -1 ? undefined : text[keyIndex]
    if (typeof key !== "string") return decode(rows.object(index))
    const hit = remembered.get(key)
    if (
      hit?.text !== undefined &&
      hit.names !== undefined &&
      sameTexts(hit.text, text) &&
      sameTexts(hit.names, rows.names)
    ) {
      return Either.right(hit.value)
    }
    return decodeKeyed(key, hit, rows.object(index), text, rows.names)
  }
  const decodeAll = (
    count: number,
    decodeAt: (index: number) => Either.Either<A, ParseResult.ParseError>
  ): Either.Either<ReadonlyArray<A>, ParseResult.ParseError> => {
    const values = new Array<A>(count)
    for (let i = 0; i < count; i++) {
      const decoded = decodeAt(i)
      if (Either.isLeft(decoded)) return Either.left(decoded.left)
      values[i] = decoded.right
    }
    return Either.right(values)
  }
  return {
    first: (rows) => (rows.length === 0 ? Effect.succeedNone : Effect.asSome(decodeRow(rows[0]))),
    all: (rows) => Effect.suspend(() => decodeAll(rows.length, (i) => decodeRow(rows[i]))),
    firstText: (rows) =>
      rows.rows.length === 0
        ? Either.right(Option.none())
        : Either.map(decodeText(rows, 0, rows.names.indexOf(keyColumn)), Option.some),
    allText: (rows) => {
      const keyIndex = rows.names.indexOf(keyColumn)
      return decodeAll(rows.rows.length, (i) => decodeText(rows, i, keyIndex))
    }
  }
}

/**
 * `build` of an object, made once per object: a remembered row read again is the same object, so
 * what is built from it (a `Member`, a principal: ≈ 0.5 µs each to construct, more when the
 * constructor checks its fields) is kept beside it for as long as the row is.
 */
export const builtOnce = <R extends object, B>(build: (row: R) => B): ((row: R) => B) => {
  const built = new WeakMap<R, B>()
  return (row) => {
    if (built.has(row)) return built.get(row) as B
    const value = build(row)
    built.set(row, value)
    return value
  }
}

// Pages cut from a ranked result list: a page starts where the cursor points, and its cursor for
// the next page is bound to the query (by its key) and the snapshot (catalog-extensions §2).
import * as Either from "effect/Either"
import type { BadRequest } from "../../http/ApiError.js"
import type { CursorCodec } from "../Cursor.js"

export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly nextCursor: string | null
}

export interface PageRequest {
  readonly limit: number
  readonly cursor: string | undefined
}

/** Results in order, read a page at a time: an array, or a ranking kept in another form. */
export interface Results<R> {
  readonly length: number
  readonly slice: (start: number, end: number) => ReadonlyArray<R>
}

/** The page of `results` a request asks for, each result rendered; a foreign cursor is a 400. */
export type Paginate = <R, A>(
  results: Results<R>,
  queryKey: string,
  request: PageRequest,
  render: (result: R) => A
) => Either.Either<Page<A>, BadRequest>

export const makePaginate =
  (cursors: CursorCodec): Paginate =>
  (results, queryKey, request, render) =>
    Either.map(
      request.cursor === undefined ? Either.right(0) : cursors.decode(request.cursor, queryKey),
      (offset) => {
        const end = offset + request.limit
        return {
          data: results.slice(offset, end).map(render),
          nextCursor: end < results.length ? cursors.encode(queryKey, end) : null
        }
      }
    )

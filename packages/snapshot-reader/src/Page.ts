// A page of a ranked list: `limit` results from `offset`, and where the next page starts. The
// service pages with signed cursors over the same ranked lists (search/Paginate.ts); a reader has
// no secret to sign with, so it pages by offset, and its pages hold the same results.

export interface PageQuery {
  /** Results per page: 10 unless given. */
  readonly limit?: number | undefined
  /** Where the page starts in the ranked list: 0 unless given. */
  readonly offset?: number | undefined
}

export interface Page<A> {
  readonly data: ReadonlyArray<A>
  /** The next page's offset, or null on the last page. */
  readonly nextOffset: number | null
  /** How many results the whole list holds. */
  readonly total: number
}

import { SnapshotReaderError } from "./SnapshotSource.js"

/** The page of `results` a query asks for, each result rendered. */
export const pageOf = async <R, A>(
  results: ReadonlyArray<R>,
  query: PageQuery,
  render: (result: R) => Promise<A>
): Promise<Page<A>> => {
  const limit = query.limit ?? 10
  const offset = query.offset ?? 0
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new SnapshotReaderError("limit must be a whole number from 1")
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new SnapshotReaderError("offset must be a whole number from 0")
  const end = offset + limit
  return {
    data: await Promise.all(results.slice(offset, end).map(render)),
    nextOffset: end < results.length ? end : null,
    total: results.length
  }
}

// The console's lists read a page at a time with the API's own cursors (extensions §3's lists): the
// first page, or the one after the cursor in the page's address; a cursor that no longer reads
// (tampered with, or from another list) falls back to the first page instead of an error page.
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import { type Html, html } from "../../http/pages/Html.js"
import type { PageRequest } from "../Domain/Common.js"
import type { InvalidCursor } from "../Domain/Errors.js"

/** Items per page of every console list. */
export const PAGE_SIZE = 50

export interface Paged<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

const isInvalidCursor = (error: unknown): error is InvalidCursor => Predicate.isTagged(error, "InvalidCursor")

/** The page of the list at `cursor` (the first when none, or when it does not read). */
export const listPage = <A, E>(
  read: (page: PageRequest) => Effect.Effect<Paged<A>, E | InvalidCursor>,
  cursor: string | null
): Effect.Effect<Paged<A>, Exclude<E, InvalidCursor>> => {
  // The first page has no cursor to refuse: a refusal there would be a bug.
  const first = read({ cursor: undefined, limit: PAGE_SIZE }).pipe(
    Effect.catchIf(isInvalidCursor, Effect.die)
  )
  return cursor === null
    ? first
    : read({ cursor, limit: PAGE_SIZE }).pipe(Effect.catchIf(isInvalidCursor, () => first))
}

/** Links to the next page of a list (query parameter `param`) and back to its first, as needed. */
export const pager = (url: URL, param: string, anchor: string, nextCursor: string | null): Html => {
  const at = (cursor: string | null) => {
    const next = new URL(url)
    next.searchParams.delete("done")
    if (cursor === null) next.searchParams.delete(param)
    else next.searchParams.set(param, cursor)
    return `${next.pathname}${next.search}#${anchor}`
  }
  const links = [
    ...(url.searchParams.has(param) ? [html`<a href="${at(null)}">First page</a>`] : []),
    ...(nextCursor === null ? [] : [html`<a href="${at(nextCursor)}">Next page</a>`])
  ]
  return links.length === 0 ? html`` : html`<p class="actions">${links}</p>`
}

// The words of a query as search terms: folded as the indexes were built, each once.
import * as Either from "effect/Either"
import { BadRequest } from "../../http/ApiError.js"
import { noSearchTerms, searchTerms } from "./SearchTerms.js"

/** The words of a query as search terms, or a 400 when there is none to search for. */
export const queryTerms = (
  q: string,
  parameter: string
): Either.Either<ReadonlyArray<string>, BadRequest> => {
  const terms = searchTerms(q)
  return terms.length > 0
    ? Either.right(terms)
    : Either.left(new BadRequest({ message: noSearchTerms(parameter), data: { parameter } }))
}

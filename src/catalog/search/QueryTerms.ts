// The words of a query as search terms: folded as the indexes were built, each once.
import * as Either from "effect/Either"
import { BadRequest } from "../../http/ApiError.js"
import { tokenize } from "../SearchOptions.js"

/** The words of a query as search terms, or a 400 when there is none to search for. */
export const queryTerms = (
  q: string,
  parameter: string
): Either.Either<ReadonlyArray<string>, BadRequest> => {
  const terms = [...new Set(tokenize(q))]
  return terms.length > 0
    ? Either.right(terms)
    : Either.left(
        new BadRequest({
          message: `${parameter} must hold at least one word of two or more letters or digits`,
          data: { parameter }
        })
      )
}

// What the ask endpoint takes (catalog-extensions §8): a question of 1 to 500 characters and how
// many episodes and transcript hits to return. One schema for POST /ask, GET /ask and RPC `Ask`.
import * as Schema from "effect/Schema"
import { askLimitBounds, questionLengthBounds } from "../CatalogLimits.js"
import { boundedInteger } from "../CatalogRequests.js"
import { requestOf } from "../RequestStruct.js"

export { askLimitBounds } from "../CatalogLimits.js"

const limitDescription = `How many episodes and transcript hits to return (default ${askLimitBounds.default}).`

export const Question = Schema.String.pipe(
  Schema.minLength(questionLengthBounds.minimum, { message: () => "must not be empty" }),
  Schema.maxLength(questionLengthBounds.maximum, {
    message: () => `must be at most ${questionLengthBounds.maximum} characters`
  }),
  Schema.annotations({
    title: "Question",
    description: `A question in plain language, ${questionLengthBounds.minimum} to ${questionLengthBounds.maximum} characters.`,
    examples: ["What did Prudence Ashworth say about wheat starch paste?"]
  })
)

export const AskLimit = boundedInteger("Result count", limitDescription, askLimitBounds)

export const AskRequest = requestOf(
  { question: Question, limit: Schema.optional(AskLimit) },
  "A question about the podcast, and how many episodes and transcript hits to return."
).annotations({ identifier: "AskRequest" })
export type AskRequest = typeof AskRequest.Type

/** `GET /ask?q=…&limit=…`: the same request in the query string. */
export const AskParams = Schema.Struct({
  q: Question,
  limit: Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.compose(AskLimit),
      Schema.annotations({
        description: limitDescription,
        jsonSchema: {
          type: "integer",
          title: "Result count",
          description: `${limitDescription} From ${askLimitBounds.minimum} to ${askLimitBounds.maximum}.`,
          ...askLimitBounds
        }
      })
    )
  )
}).annotations({ parseOptions: { onExcessProperty: "error" } })

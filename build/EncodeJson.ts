// A record as the snapshot stores it: encoded with its Schema class, then JSON without spaces.
import * as Schema from "effect/Schema"

export const encodeJson = <A, I>(schema: Schema.Schema<A, I>, value: A) =>
  JSON.stringify(Schema.encodeSync(schema)(value))

// The string every field of the foundation's requests is built on: any text but the NUL character,
// which PostgreSQL cannot store in `text` (it fails the whole statement). Refused here, at decoding,
// it is a 400 naming the field ("name: must not contain the NUL character") instead of a 500 from
// the database, and every field built on `Text` inherits the rule.
import * as Schema from "effect/Schema"

export const Text = Schema.String.pipe(
  Schema.filter((value) => !value.includes("\u0000"), {
    message: () => "must not contain the NUL character"
  })
)

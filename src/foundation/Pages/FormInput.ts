// A page's form read into the API's own request schema, so that a page and the JSON API validate
// alike (one source of truth), and what the schema refuses turned into problems beside the fields,
// in the person's words: the schema decides whether a field is acceptable, the page says how to fix it.
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { type FieldError, fieldId } from "../../http/pages/Forms.js"

/** For each field of the form, in the order the form shows them: what to do when it is refused. */
export type FieldWords = Readonly<Record<string, string>>

export interface FieldTargets {
  /** The form's name, where the page has several (the fields' ids carry it). */
  readonly form?: string
  /** Ids that are not `fieldId(name, form)`, e.g. the first box of a group of checkboxes. */
  readonly ids?: Readonly<Record<string, string>>
}

/** The id the error summary links to for `field`. */
export const targetOf = (field: string, targets: FieldTargets = {}): string =>
  targets.ids?.[field] ?? fieldId(field, targets.form)

/**
 * Decodes `input` with `schema`, every problem at once; a refusal is the list of the refused fields'
 * problems, in the form's order. A refusal of something the words do not name (a bug of the page)
 * is still a refusal, said in general terms.
 */
export const decodeFields = <A, I>(
  schema: Schema.Schema<A, I, never>,
  input: unknown,
  words: FieldWords,
  targets: FieldTargets = {}
): Either.Either<A, ReadonlyArray<FieldError>> => {
  const decoded = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })(input)
  if (Either.isRight(decoded)) return Either.right(decoded.right)
  const refused = new Set(
    ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => String(issue.path[0] ?? ""))
  )
  const named = Object.entries(words)
    .filter(([field]) => refused.has(field))
    .map(([field, text]) => ({ field: targetOf(field, targets), text }))
  if (named.length > 0) return Either.left(named)
  const first = Object.keys(words)[0] ?? ""
  return Either.left([{ field: targetOf(first, targets), text: "Check the values in this form." }])
}

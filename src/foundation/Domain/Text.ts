// The text the foundation accepts, whatever carries it (a schema field, a form, a query, a Basic
// credential, a JSON document): any Unicode text but the NUL character, which PostgreSQL cannot store
// in `text` or `jsonb` (it fails the whole statement), and but a lone surrogate, which is no Unicode
// at all (`jsonb` refuses its escape; `text` would silently store U+FFFD instead). Refused where the
// input is decoded, it is a 400 naming the field ("name: must not contain the NUL character") rather
// than a 500 from the database. Every schema field built on `Text` inherits the rule; the decoders
// that are not schemas (forms, OAuth's parameters and documents) call `textProblem` or
// `jsonTextProblem`.
import * as Schema from "effect/Schema"

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Why `value` is not text the service accepts, or undefined when it is. */
export const textProblem = (value: string): string | undefined => {
  if (value.includes("\u0000")) return "must not contain the NUL character"
  if (loneSurrogate.test(value)) return "must not contain a lone surrogate (it is not Unicode text)"
  return undefined
}

/**
 * The first string of a parsed JSON value (an object's keys included) that is not acceptable text,
 * as `path: problem` (`redirect_uris.0: must not contain the NUL character`); undefined when all are.
 */
export const jsonTextProblem = (value: unknown, path: ReadonlyArray<string> = []): string | undefined => {
  const at = (segments: ReadonlyArray<string>) =>
    segments.length === 0 ? "the document" : segments.join(".")
  if (typeof value === "string") {
    const problem = textProblem(value)
    return problem === undefined ? undefined : `${at(path)}: ${problem}`
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = jsonTextProblem(item, [...path, String(index)])
      if (problem !== undefined) return problem
    }
    return undefined
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      // A key is named by its place: the key itself is what cannot be shown.
      const keyProblem = textProblem(key)
      if (keyProblem !== undefined) return `a key in ${at(path)}: ${keyProblem}`
      const problem = jsonTextProblem(item, [...path, key])
      if (problem !== undefined) return problem
    }
  }
  return undefined
}

/** The first of `entries` (name and value, as a form or query gives them) that is not acceptable text. */
export const parametersTextProblem = (
  entries: ReadonlyArray<readonly [string, string]>
): string | undefined => {
  for (const [name, value] of entries) {
    const nameProblem = textProblem(name)
    if (nameProblem !== undefined) return `a parameter's name: ${nameProblem}`
    const problem = textProblem(value)
    if (problem !== undefined) return `${name}: ${problem}`
  }
  return undefined
}

export const Text = Schema.String.pipe(
  Schema.filter((value) => {
    const problem = textProblem(value)
    return problem === undefined ? true : problem
  })
)

// The one rule for what a request body's Content-Type means. JSON is `application/json` and every
// `application/<anything>+json` (RFC 6839's structured syntax suffix, e.g. application/vnd.api+json),
// in any letter case, in UTF-8 (RFC 8259) when a charset is named; it is read as JSON on every route.
// A route may also read `application/x-www-form-urlencoded` when it declares so (HTML forms, OAuth's
// token endpoint); every other media type is refused with a 400.
import * as Context from "effect/Context"

/** The kinds of body a route may read. */
export type BodyMediaType = "json" | "form"

/**
 * Annotates an HttpApi endpoint with the kinds of body it reads, when that is not JSON alone (e.g.
 * `["form", "json"]` for an endpoint HTML forms post to). Routes outside an HttpApi declare the
 * same through the `BodyRules` registry.
 */
export class BodyMediaTypes extends Context.Tag("BodyMediaTypes")<
  BodyMediaTypes,
  ReadonlyArray<BodyMediaType>
>() {}

/** What a route reads unless it declares otherwise. */
export const jsonBodies: ReadonlyArray<BodyMediaType> = ["json"]

/** The media type the router is shown for a JSON body, whichever JSON type the client named. */
export const canonicalJson = "application/json"

export type MediaTypeVerdict =
  | { readonly _tag: "Accepted"; readonly kind: BodyMediaType }
  | { readonly _tag: "Refused"; readonly message: string }

const formType = "application/x-www-form-urlencoded"

const names: Record<BodyMediaType, string> = {
  json: "application/json (or application/*+json)",
  form: formType
}

const isJsonType = (essence: string) =>
  essence === "application/json" ||
  (essence.startsWith("application/") &&
    essence.endsWith("+json") &&
    essence.length > "application/+json".length)

/** The charset a Content-Type names, lower-cased and unquoted, if any. */
const charsetOf = (parameters: ReadonlyArray<string>): string | undefined => {
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=")
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== "charset") continue
    return parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase()
  }
  return undefined
}

/**
 * Judges the Content-Type of a request that carries a body, for a route that reads `accepted`. A
 * body without a Content-Type is taken as JSON, the only kind every route reads.
 */
export const judgeMediaType = (
  contentType: string | undefined,
  accepted: ReadonlyArray<BodyMediaType>
): MediaTypeVerdict => {
  const [type = "", ...parameters] = (contentType ?? canonicalJson).split(";")
  const essence = type.trim().toLowerCase()
  const kind: BodyMediaType | undefined = isJsonType(essence)
    ? "json"
    : essence === formType
      ? "form"
      : undefined
  const expected = accepted.map((each) => names[each]).join(" or ")
  if (kind === undefined || !accepted.includes(kind)) {
    return {
      _tag: "Refused",
      message: `Request bodies here must be ${expected}, not ${essence || "an empty media type"}.`
    }
  }
  const charset = charsetOf(parameters)
  if (kind === "json" && charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    return { _tag: "Refused", message: `JSON request bodies must be UTF-8, not ${charset}.` }
  }
  return { _tag: "Accepted", kind }
}

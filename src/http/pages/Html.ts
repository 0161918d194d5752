// HTML that escapes by construction: the `html` template escapes every interpolated value unless it
// is itself `Html` (the result of another `html` template), so a page cannot carry text from a
// person, a client or a query as markup by accident. There is no way to insert a raw string.

const marker: unique symbol = Symbol("Html")

export interface Html {
  readonly [marker]: true
  readonly text: string
}

const make = (text: string): Html => ({ [marker]: true, text })

export const isHtml = (value: unknown): value is Html =>
  typeof value === "object" && value !== null && marker in value

/** What a template accepts: text (escaped), numbers, markup, nothing, and lists of those. */
export type HtmlValue = Html | string | number | boolean | null | undefined | ReadonlyArray<HtmlValue>

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;"
}

/** Escapes text for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => escapes[c] ?? c)

const render = (value: HtmlValue): string => {
  if (value === null || value === undefined || value === false || value === true) return ""
  if (typeof value === "number") return String(value)
  if (typeof value === "string") return escapeHtml(value)
  if (isHtml(value)) return value.text
  return value.map(render).join("")
}

/**
 * The template tag: `html\`<p>${name}</p>\`` escapes `name`. Booleans render as nothing, so
 * `${condition && html\`…\`}` includes markup conditionally. Attribute values must be quoted.
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<HtmlValue>): Html => {
  let out = strings[0] ?? ""
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "")
  return make(out)
}

/** Unicode's bidirectional formatting characters: embeddings and overrides, isolates, and the marks. */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/** Control characters that break a line or space it out (and the two Unicode line separators). */
const spacingControls = /[\t\n\v\f\r\u0085\u2028\u2029]/g
/** Every other C0 or C1 control character, and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced.
const otherControls = /[\u0000-\u001f\u007f-\u009f]/g

/**
 * A name from outside (a person's, an organization's, a client's) as text that cannot disguise the
 * page around it (extensions §9): bidirectional formatting characters are removed (an override
 * would show a name, or the sentence it sits in, in another order than it has), line breaks and
 * tabs become spaces, and any other control character becomes U+FFFD, so it shows. For a title or
 * an attribute; in the page's text use `displayName`, which also isolates it.
 */
export const neutralText = (text: string): string =>
  text.replace(bidiControls, "").replace(spacingControls, " ").replace(otherControls, "\ufffd")

/**
 * A name from outside, neutralised (`neutralText`), escaped, and isolated in `<bdi>` so that a name
 * written right to left keeps its own direction without reordering the words next to it.
 */
export const displayName = (text: string): Html => html`<bdi>${neutralText(text)}</bdi>`

/** The document as text, for the response body. */
export const toDocument = (page: Html): string => `<!doctype html>\n${page.text}`

/**
 * A URL safe to put in `href` or `action`: absolute http(s), or a path of this service. Anything
 * else (`javascript:`, `data:`, a protocol-relative `//host`) becomes `#`, so a link built from
 * outside input can never run script.
 */
export const safeHref = (url: string): string => {
  if (url.startsWith("/") && !url.startsWith("//")) return url
  try {
    const parsed = new URL(url)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : "#"
  } catch {
    return "#"
  }
}

// Small helpers of the search page: elements made from data as text only (`append` turns strings
// into text nodes; nothing from the snapshot is ever parsed as HTML), times and dates as people read
// them, and the outside links the page allows.

type Child = Node | string | undefined | false

/** An element with attributes and children; strings become text nodes. */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | undefined>> = {},
  ...children: ReadonlyArray<Child>
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, value)
  }
  for (const child of children) if (child !== undefined && child !== false) element.append(child)
  return element
}

/** `h:mm:ss` or `m:ss`, as audio players show a moment. */
export const clock = (seconds: number): string => {
  const whole = Math.max(0, Math.floor(seconds))
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`
}

/** A length in minutes (or hours and minutes). */
export const duration = (seconds: number): string => {
  const minutes = Math.round(seconds / 60)
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

const dateFormat = new Intl.DateTimeFormat("en", { year: "numeric", month: "long", day: "numeric" })

/** A publication date, `29 April 2025`. */
export const date = (iso: string): string => {
  const parsed = new Date(iso)
  return Number.isNaN(parsed.getTime()) ? iso : dateFormat.format(parsed)
}

/** Only `http:` and `https:` links are made clickable: a `javascript:` link from a feed is text. */
export const safeHref = (href: string): string | undefined => {
  try {
    const url = new URL(href)
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined
  } catch {
    return undefined
  }
}

/** A link out of the snapshot (a publisher's page, a person): it opens there, sending no referrer. */
export const outsideLink = (href: string, text: string): Node => {
  const safe = safeHref(href)
  return safe === undefined ? document.createTextNode(text) : el("a", { href: safe, rel: "noreferrer" }, text)
}

/** `snippet` as text with its `[start, end)` highlights in `<mark>`. */
export const highlighted = (
  snippet: string,
  highlights: ReadonlyArray<readonly [number, number]>
): Array<Node> => {
  const nodes: Array<Node> = []
  let at = 0
  for (const [start, end] of [...highlights].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start || end > snippet.length) continue
    if (start > at) nodes.push(document.createTextNode(snippet.slice(at, start)))
    nodes.push(el("mark", {}, snippet.slice(start, end)))
    at = end
  }
  if (at < snippet.length) nodes.push(document.createTextNode(snippet.slice(at)))
  return nodes
}

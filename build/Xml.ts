// A small namespace-aware XML element tree with line numbers, read with a strict parser (saxes), so
// that broken XML is reported with its line and the feed reader can name the line of every item.
import * as Either from "effect/Either"
import { SaxesParser } from "saxes"

export interface XmlElement {
  readonly uri: string
  readonly local: string
  /** Attributes by local name (feeds do not use namespaced attributes we need). */
  readonly attributes: ReadonlyMap<string, string>
  readonly children: ReadonlyArray<XmlElement>
  /** The element's own text and CDATA, concatenated. */
  readonly text: string
  /** 1-based line of the start tag. */
  readonly line: number
}

export interface XmlSyntaxError {
  readonly line: number
  readonly message: string
}

interface Building {
  readonly uri: string
  readonly local: string
  readonly attributes: Map<string, string>
  readonly children: Array<XmlElement>
  text: string
  readonly line: number
}

export const parseXml = (source: string): Either.Either<XmlElement, XmlSyntaxError> => {
  const parser = new SaxesParser({ xmlns: true, position: true })
  const stack: Array<Building> = []
  let root: XmlElement | undefined
  let failure: XmlSyntaxError | undefined
  parser.on("error", (error) => {
    // saxes prefixes messages with "line:column: "; the line is reported separately.
    failure ??= { line: parser.line, message: error.message.replace(/^\d+:\d+: /, "") }
  })
  parser.on("opentag", (tag) => {
    const attributes = new Map<string, string>()
    for (const attribute of Object.values(tag.attributes)) attributes.set(attribute.local, attribute.value)
    stack.push({ uri: tag.uri, local: tag.local, attributes, children: [], text: "", line: parser.line })
  })
  const appendText = (text: string) => {
    const current = stack[stack.length - 1]
    if (current) current.text += text
  }
  parser.on("text", appendText)
  parser.on("cdata", appendText)
  parser.on("closetag", () => {
    const done = stack.pop()
    if (!done) return
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(done)
    else root = done
  })
  try {
    parser.write(source.replace(/^\uFEFF/, "")).close()
  } catch (error) {
    failure ??= { line: parser.line, message: error instanceof Error ? error.message : String(error) }
  }
  if (failure) return Either.left(failure)
  if (!root) return Either.left({ line: 1, message: "the document has no root element" })
  return Either.right(root)
}

export const childrenNamed = (element: XmlElement, uri: string, local: string): Array<XmlElement> =>
  element.children.filter((child) => child.uri === uri && child.local === local)

export const childNamed = (element: XmlElement, uri: string, local: string): XmlElement | undefined =>
  element.children.find((child) => child.uri === uri && child.local === local)

/** The trimmed text of the first such child, or undefined when it is absent or empty. */
export const childText = (element: XmlElement, uri: string, local: string): string | undefined => {
  const text = childNamed(element, uri, local)?.text.trim()
  return text === undefined || text === "" ? undefined : text
}

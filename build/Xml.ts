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
  /** The qualified name, as written (`itunes:episode`). */
  readonly name: string
  readonly uri: string
  readonly local: string
  readonly attributes: Map<string, string>
  readonly children: Array<XmlElement>
  text: string
  readonly line: number
}

// saxes reports a wrongly closed element as "unexpected close tag." without names; the parser's
// position is just past the close tag it met, so the source says which one it was.
const closeTagBefore = /<\/\s*([^\s>]+)\s*>$/

export const parseXml = (text: string): Either.Either<XmlElement, XmlSyntaxError> => {
  const source = text.replace(/^\uFEFF/, "")
  const parser = new SaxesParser({ xmlns: true, position: true })
  const stack: Array<Building> = []
  let root: XmlElement | undefined
  let lastClosed: Building | undefined
  let failure: XmlSyntaxError | undefined
  /** saxes's message, with the names and lines of the elements involved where it gives none. */
  const describe = (message: string): XmlSyntaxError => {
    if (message === "unexpected close tag." && lastClosed !== undefined) {
      const found = closeTagBefore.exec(source.slice(0, parser.position))?.[1]
      const opened = `<${lastClosed.name}> opened at line ${lastClosed.line}`
      return {
        line: parser.line,
        message: `expected </${lastClosed.name}> (${opened}), found ${found === undefined ? "another close tag" : `</${found}>`}`
      }
    }
    const unclosed = /^unclosed tag: (.+)$/.exec(message)?.[1]
    const open = unclosed === undefined ? undefined : stack.findLast((element) => element.name === unclosed)
    if (open !== undefined) {
      return { line: open.line, message: `<${open.name}> opened at line ${open.line} is never closed` }
    }
    const unmatched = /^unmatched closing tag: (.+)\.$/.exec(message)?.[1]
    if (unmatched !== undefined) {
      return { line: parser.line, message: `</${unmatched}> closes no open element` }
    }
    return { line: parser.line, message }
  }
  parser.on("error", (error) => {
    // saxes prefixes messages with "line:column: "; the line is reported separately.
    failure ??= describe(error.message.replace(/^\d+:\d+: /, ""))
  })
  parser.on("opentag", (tag) => {
    const attributes = new Map<string, string>()
    for (const attribute of Object.values(tag.attributes)) attributes.set(attribute.local, attribute.value)
    stack.push({
      name: tag.name,
      uri: tag.uri,
      local: tag.local,
      attributes,
      children: [],
      text: "",
      line: parser.line
    })
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
    lastClosed = done
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(done)
    else root = done
  })
  try {
    parser.write(source).close()
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

// The fenced code blocks of a Markdown page, with the line each starts on, for tests that run or
// compile the examples of the README and content/docs as a reader would copy them.
import { readFileSync } from "node:fs"

export interface CodeBlock {
  /** The info string's first word (`sh`, `ts`, `json`…), "" when the fence has none. */
  readonly language: string
  /** The lines between the fences. */
  readonly lines: ReadonlyArray<string>
  /** 1-based line of the block's first line in the page. */
  readonly firstLine: number
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/

export const codeBlocks = (text: string): Array<CodeBlock> => {
  const blocks: Array<CodeBlock> = []
  const lines = text.split("\n")
  let open: { marker: string; language: string; firstLine: number; lines: Array<string> } | undefined
  lines.forEach((line, index) => {
    const match = fence.exec(line)
    if (open === undefined) {
      if (match)
        open = { marker: match[2] ?? "```", language: match[3] ?? "", firstLine: index + 2, lines: [] }
      return
    }
    if (match && (match[2] ?? "").startsWith(open.marker) && (match[3] ?? "") === "") {
      blocks.push({ language: open.language, lines: open.lines, firstLine: open.firstLine })
      open = undefined
      return
    }
    open.lines.push(line)
  })
  return blocks
}

export const codeBlocksOf = (file: string): Array<CodeBlock> => codeBlocks(readFileSync(file, "utf8"))

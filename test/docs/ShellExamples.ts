// The shell examples of a Markdown page as a script that runs them in order, with every curl command
// of the text found and located: its lines in the page and in the script, and the status the text
// promises for it (a trailing comment such as `# 304`, `# 404: …` or `# HTTP/1.1 304`).
import { type CodeBlock, codeBlocks } from "../support/MarkdownBlocks.js"

/** A curl command of a page: a line and its continuations (`\`, open quotes or `$(`). */
export interface CurlExample {
  /** The command as the page writes it, continuation lines and comment included. */
  readonly text: string
  /** 1-based lines of the page the command spans. */
  readonly pageLines: readonly [first: number, last: number]
  /** 1-based lines of the script the command spans. */
  readonly scriptLines: readonly [first: number, last: number]
  /** The comment after the command on its last line, without `#`, or undefined. */
  readonly comment: string | undefined
  /** The status the comment names, or undefined when it names none (then 2xx or 304 is expected). */
  readonly expectedStatus: number | undefined
}

export interface PageScript {
  /** The examples' lines, block after block, to append to a prelude that is `offset` lines long. */
  readonly lines: ReadonlyArray<string>
  readonly curls: ReadonlyArray<CurlExample>
  /** The `sh` blocks left out because they run no curl (installing, starting, testing…). */
  readonly skippedBlocks: ReadonlyArray<CodeBlock>
}

const shellLanguages = new Set(["sh", "bash", "shell"])

interface ScanState {
  quote: "'" | '"' | undefined
  depth: number
}

/**
 * Reads one line of a command: where its comment starts (an unquoted `#` at the start of a word),
 * its code with quoted text blanked (to find the commands it runs), and whether the command goes on.
 */
const scanLine = (line: string, state: ScanState) => {
  let code = ""
  let comment: string | undefined
  let continues = false
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i)
    if (state.quote === "'") {
      if (c === "'") state.quote = undefined
      code += " "
      continue
    }
    if (state.quote === '"') {
      if (c === "\\") i++
      else if (c === '"') state.quote = undefined
      code += " "
      continue
    }
    if (c === "\\") {
      if (i === line.length - 1) continues = true
      i++
      code += " "
      continue
    }
    if (c === "'" || c === '"') {
      state.quote = c
      code += " "
      continue
    }
    if (c === "#" && (i === 0 || /\s/.test(line.charAt(i - 1)))) {
      comment = line.slice(i + 1).trim()
      break
    }
    if (c === "(") state.depth++
    if (c === ")") state.depth = Math.max(0, state.depth - 1)
    code += c
  }
  return { code, comment, continues: continues || state.quote !== undefined || state.depth > 0 }
}

const runsCurl = /(^|[\s;&|(`])curl(\s|$)/

/** The commands of a block, each with its lines counted from the block's first line (0-based). */
const commandsOf = (lines: ReadonlyArray<string>) => {
  const commands: Array<{ first: number; last: number; code: string; comment: string | undefined }> = []
  const state: ScanState = { quote: undefined, depth: 0 }
  let current: { first: number; code: string } | undefined
  lines.forEach((line, index) => {
    const scanned = scanLine(line, state)
    if (current === undefined) {
      if (scanned.code.trim() === "" && !scanned.continues) return
      current = { first: index, code: "" }
    }
    current.code += ` ${scanned.code}`
    if (!scanned.continues) {
      commands.push({ first: current.first, last: index, code: current.code, comment: scanned.comment })
      current = undefined
    }
  })
  if (current !== undefined) {
    commands.push({ first: current.first, last: lines.length - 1, code: current.code, comment: undefined })
  }
  return commands
}

/** The status a comment promises: its first number from 100 to 599 (`# 304`, `# HTTP/1.1 404 …`). */
export const promisedStatus = (comment: string | undefined): number | undefined => {
  const match = /(?:^|[^\d.])([1-5]\d\d)(?![\d.])/.exec(comment ?? "")
  return match?.[1] === undefined ? undefined : Number(match[1])
}

/**
 * The page's shell examples that run curl, as lines to run in one shell after a prelude of
 * `offset` lines, with `from` replaced by `to` (the documented address by the test server's).
 */
export const pageScript = (text: string, offset: number, from: string, to: string): PageScript => {
  const lines: Array<string> = []
  const curls: Array<CurlExample> = []
  const skippedBlocks: Array<CodeBlock> = []
  for (const block of codeBlocks(text)) {
    if (!shellLanguages.has(block.language)) continue
    const commands = commandsOf(block.lines)
    if (!commands.some((command) => runsCurl.test(command.code))) {
      skippedBlocks.push(block)
      continue
    }
    lines.push(`# ${block.firstLine}`)
    const start = offset + lines.length + 1
    for (const line of block.lines) lines.push(line.replaceAll(from, to))
    for (const command of commands) {
      if (!runsCurl.test(command.code)) continue
      curls.push({
        text: block.lines.slice(command.first, command.last + 1).join("\n"),
        pageLines: [block.firstLine + command.first, block.firstLine + command.last],
        scriptLines: [start + command.first, start + command.last],
        comment: command.comment,
        expectedStatus: promisedStatus(command.comment)
      })
    }
  }
  return { lines, curls, skippedBlocks }
}

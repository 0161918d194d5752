// Tools that only some tests run (Prism, Redocly's CLI, openapi-typescript, the MCP Inspector): each
// is a package folder of its own under test/, with its own lock, installed there on first use, so the
// service's root install stays what building, running and testing the service need. Where a folder
// cannot be installed (no registry), the tests that need it skip, saying why.
import { execFileSync } from "node:child_process"
import { delimiter, dirname, join } from "node:path"

const repository = join(import.meta.dirname, "../..")

export interface FolderTool {
  /** The Node binary to run `bin` with. */
  readonly node: string
  /** The tool's script (a file under the folder's node_modules/.bin). */
  readonly bin: string
}

// Installs the folder's lock unless an install newer than the lock is there; one test file at a time.
const installScript = `exec 9>.install.lock && flock 9
[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error`

/**
 * The command `bin` of the package folder `folder` (relative to the repository), installed first if
 * needed with the npm beside `node` (this process's Node unless given), or why that could not be done.
 */
export const folderTool = (
  folder: string,
  bin: string,
  node: string = process.execPath
): FolderTool | { readonly skip: string } => {
  const directory = join(repository, folder)
  try {
    execFileSync("bash", ["-c", installScript], {
      cwd: directory,
      env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` },
      stdio: "pipe"
    })
    return { node, bin: join(directory, "node_modules/.bin", bin) }
  } catch (error) {
    return { skip: `npm ci in ${folder} (needs the npm registry) failed: ${npmSaid(error)}` }
  }
}

/** What npm printed last on failing (its error's summary), else the error's first line. */
const npmSaid = (error: unknown): string => {
  const stderr = (error as { stderr?: unknown }).stderr
  const lines = String(stderr ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.includes("A complete log of this run"))
  return (
    lines.find((line) => /^npm (error|ERR!) (code|errno|network|request)/.test(line)) ??
    lines.at(-1) ??
    firstLine(error)
  )
}

export const firstLine = (error: unknown): string =>
  error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)

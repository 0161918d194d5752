// Tools the tests run that need a newer Node than the service's install may require (the MCP
// Inspector needs Node >= 22.19): each is a package folder of its own, with its own lock, installed
// on first use and run on the pinned Node 24 that .ci/node24.sh takes from the npm registry. The
// root `npm install` stays free of them, so it prints no engine warning on Node 20. Where they
// cannot be installed (no registry), the tests that need them skip, saying why.
import { execFileSync } from "node:child_process"
import { delimiter, dirname, join } from "node:path"

const repository = join(import.meta.dirname, "../..")

export interface Node24Tool {
  /** The Node 24 binary to run `bin` with. */
  readonly node: string
  /** The tool's script (a file under the folder's node_modules/.bin). */
  readonly bin: string
}

// Installs the folder's lock unless an install newer than the lock is there; one test file at a time.
const installScript = `exec 9>.install.lock && flock 9
[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error`

/**
 * The command `bin` of the package folder `folder` (relative to the repository) with the Node 24 to
 * run it on, installing both first if needed; or why that could not be done.
 */
export const node24Tool = (folder: string, bin: string): Node24Tool | { readonly skip: string } => {
  const directory = join(repository, folder)
  try {
    const node = execFileSync("bash", [join(repository, ".ci/node24.sh")], { encoding: "utf8" }).trim()
    // npm runs on Node 24 too, so the tool's engines are met and npm says nothing about them.
    execFileSync("bash", ["-c", installScript], {
      cwd: directory,
      env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` },
      stdio: "pipe"
    })
    return { node, bin: join(directory, "node_modules/.bin", bin) }
  } catch (error) {
    const said = error instanceof Error ? error.message.split("\n")[0] : String(error)
    return {
      skip: `${folder} installed with Node 24 (.ci/node24.sh, then npm ci there; both need the npm registry): ${said}`
    }
  }
}

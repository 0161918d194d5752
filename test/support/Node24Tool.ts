// Tools the tests run that need a newer Node than the service's install may require (the MCP
// Inspector needs Node >= 22.19): a tool folder (ToolFolder.ts) installed and run on the pinned
// Node 24 that .ci/node24.sh takes from the npm registry, so npm says nothing about the tool's
// engines and the root `npm install` prints no engine warning on Node 20.
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { type FolderTool, firstLine, folderTool } from "./ToolFolder.js"

const repository = join(import.meta.dirname, "../..")

export type Node24Tool = FolderTool

/**
 * The command `bin` of the package folder `folder` (relative to the repository) with the Node 24 to
 * run it on, installing both first if needed; or why that could not be done.
 */
export const node24Tool = (folder: string, bin: string): Node24Tool | { readonly skip: string } => {
  let node: string
  try {
    node = execFileSync("bash", [join(repository, ".ci/node24.sh")], { encoding: "utf8" }).trim()
  } catch (error) {
    return {
      skip: `Node 24 from the npm registry (.ci/node24.sh) could not be installed: ${firstLine(error)}`
    }
  }
  return folderTool(folder, bin, node)
}

// Where a reader reads a snapshot's files: over HTTP from any static host (fetch, in browsers and
// Node) or from a folder (Node's fs). Each file is read as its gzip copy, the bytes a static server
// sends, and counted, so a reader can say what a query cost on the wire.

/** Reads one file of the snapshot by its path relative to the snapshot's root. */
export interface SnapshotSource {
  /** A readable name for messages: the snapshot's URL or folder. */
  readonly name: string
  readonly read: (path: string) => Promise<Uint8Array>
}

/** A file could not be read, or is not what the format says. */
export class SnapshotReaderError extends Error {
  override readonly name = "SnapshotReaderError"
}

/** The snapshot at `base` (its root URL), read with `fetchFile` (the global fetch by default). */
export const urlSource = (base: string | URL, fetchFile: typeof fetch = fetch): SnapshotSource => {
  const root = new URL(base)
  if (!root.pathname.endsWith("/")) root.pathname = `${root.pathname}/`
  return {
    name: root.href,
    read: async (path) => {
      const url = new URL(path, root)
      const response = await fetchFile(url)
      if (!response.ok) throw new SnapshotReaderError(`${url.href}: HTTP ${response.status}`)
      return new Uint8Array(await response.arrayBuffer())
    }
  }
}

/** The snapshot in a folder (Node only: fs is loaded when a file is first read). */
export const folderSource = (folder: string): SnapshotSource => ({
  name: folder,
  read: async (path) => {
    const [{ readFile }, { join }] = await Promise.all([import("node:fs/promises"), import("node:path")])
    try {
      return new Uint8Array(await readFile(join(folder, path)))
    } catch (error) {
      throw new SnapshotReaderError(
        `${join(folder, path)}: ${error instanceof Error ? error.message : error}`
      )
    }
  }
})

/** A URL (`http:`, `https:`, `file:`…) is read with fetch, anything else as a folder. */
export const sourceOf = (
  location: string | URL | SnapshotSource,
  fetchFile?: typeof fetch
): SnapshotSource =>
  typeof location === "object" && !(location instanceof URL)
    ? location
    : location instanceof URL || /^[a-z][a-z0-9+.-]*:\/\//i.test(location)
      ? urlSource(location, fetchFile)
      : folderSource(location)

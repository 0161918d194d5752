// The static search files as a reader needs them: each read once (its gzip copy), decompressed,
// parsed and kept, and every byte read counted.
import { SnapshotReaderError, type SnapshotSource } from "./SnapshotSource.js"

/** What a reader has read from its source so far. */
export interface Transferred {
  readonly files: number
  /** Bytes as read (the gzip copies): what a static server sends. */
  readonly bytes: number
}

const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b

/** A gzip copy's content; a server that decoded it already (Content-Encoding: gzip) gave the JSON itself. */
const gunzip = async (bytes: Uint8Array): Promise<Uint8Array> =>
  isGzip(bytes)
    ? new Uint8Array(
        await new Response(
          // A stream over the bytes themselves: a Blob would hand them to Chromium's browser process
          // and back (12–67 ms of a query's main thread in a profile of the search page).
          new ReadableStream<Uint8Array<ArrayBuffer>>({
            start: (controller) => {
              controller.enqueue(bytes as Uint8Array<ArrayBuffer>)
              controller.close()
            }
          }).pipeThrough(new DecompressionStream("gzip"))
        ).arrayBuffer()
      )
    : bytes

export interface SnapshotFiles {
  /** The JSON text of a file. */
  readonly text: (path: string) => Promise<string>
  /** A file parsed, kept for the reader's life. */
  readonly json: <A>(path: string) => Promise<A>
  readonly transferred: () => Transferred
}

export const makeSnapshotFiles = (source: SnapshotSource): SnapshotFiles => {
  let files = 0
  let bytes = 0
  const decoder = new TextDecoder()
  const text = async (path: string) => {
    const read = await source.read(`${path}.gz`)
    files++
    bytes += read.byteLength
    return decoder.decode(await gunzip(read))
  }
  const parsed = new Map<string, Promise<unknown>>()
  return {
    text,
    json: <A>(path: string) => {
      let known = parsed.get(path)
      if (known === undefined) {
        known = text(path).then((json) => {
          try {
            return JSON.parse(json) as unknown
          } catch {
            throw new SnapshotReaderError(`${source.name}: ${path} is not JSON`)
          }
        })
        // A failed read is tried again next time.
        known.catch(() => parsed.delete(path))
        parsed.set(path, known)
      }
      return known as Promise<A>
    },
    transferred: () => ({ files, bytes })
  }
}

// The one step that turns a record's relative API links (domain/ApiPaths.ts) into the absolute
// links an instance answers with, on the bytes: its origin put in front of each. Done once per file
// at load, so an answer is still a lookup and its ETag the hash of the exact bytes sent.

import { apiLinkMarkers } from "../domain/ApiPaths.js"

// Records name their API links in exactly these members (ApiPaths.ts).
const members = apiLinkMarkers.map((marker) => Buffer.from(marker, "utf8"))

/** Where each relative API link of a record's JSON starts (the `v`), in order. */
const linkStarts = (json: Buffer): Array<number> => {
  const starts: Array<number> = []
  for (const marker of members) {
    for (let at = json.indexOf(marker); at !== -1; at = json.indexOf(marker, at + marker.length)) {
      starts.push(at + marker.length - 3)
    }
  }
  return starts.sort((a, b) => a - b)
}

/**
 * A record's JSON (an episode, a transcript, a collection of episodes) with every link to this API
 * made absolute on `origin`: the bytes an instance on that origin answers. Bytes without links come
 * back as they are.
 */
export const withOrigin = (json: Buffer, origin: string): Buffer => {
  const starts = linkStarts(json)
  if (starts.length === 0) return json
  const prefix = Buffer.from(`${origin}/`, "utf8")
  const parts: Array<Buffer> = []
  let from = 0
  for (const start of starts) {
    parts.push(json.subarray(from, start), prefix)
    from = start
  }
  parts.push(json.subarray(from))
  return Buffer.concat(parts, json.byteLength + prefix.byteLength * starts.length)
}

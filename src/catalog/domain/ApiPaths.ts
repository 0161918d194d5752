// Links to this API as the snapshot's files hold them, relative to the snapshot's root: the build
// writes `v1/episodes/12`; a service on https://a.example answers `https://a.example/v1/episodes/12`
// (snapshot/OriginBytes.ts); a static consumer resolves the path against where it hosts the folder.

/** The paths of this API's resources, relative to the root (no leading slash). */
export const apiPaths = {
  episode: (slug: string) => `v1/episodes/${encodeURIComponent(slug)}`,
  transcript: (slug: string) => `v1/transcripts/${encodeURIComponent(slug)}`
}

/** The absolute link of a path of `apiPaths` on `origin`. */
export const absoluteLink = (origin: string, path: string) => `${origin}/${path}`

/**
 * Where a record's JSON names a link to this API: the members `api` and `transcript` (an episode's
 * links, and the same in a transcript's episode context) holding a relative path. An unescaped `"`
 * cannot occur inside a JSON string, so these character sequences occur only where such a member
 * starts a relative path.
 */
export const apiLinkMarkers = ['"api":"v1/', '"transcript":"v1/'] as const

/**
 * A record's JSON text with every link to this API made absolute on `origin`, as the service answers
 * it (snapshot/OriginBytes.ts does the same on bytes): for readers of the snapshot's files.
 */
export const withOriginText = (json: string, origin: string): string => {
  let result = json
  for (const marker of apiLinkMarkers) {
    result = result.split(marker).join(`${marker.slice(0, -3)}${origin}/v1/`)
  }
  return result
}

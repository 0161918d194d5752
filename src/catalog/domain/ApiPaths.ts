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

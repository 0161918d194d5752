// Where the page is, in the address's fragment, so that Back, Forward, reloading and sharing a link
// work with no server: `#q=<query>` for results, with `&episode=<slug>` (and `&t=<seconds>`, where the
// player starts) for an episode. The fragment is never sent to the host.

export interface Route {
  readonly q: string
  readonly episode: string | undefined
  /** Where the player starts, in seconds: the matching paragraph's start. */
  readonly t: number | undefined
}

export const routeOf = (hash: string): Route => {
  const params = new URLSearchParams(hash.replace(/^#/, ""))
  const t = Number(params.get("t") ?? Number.NaN)
  const episode = params.get("episode") ?? undefined
  return {
    q: params.get("q") ?? "",
    episode: episode === "" ? undefined : episode,
    t: Number.isFinite(t) && t >= 0 ? t : undefined
  }
}

export const hashOf = (route: Partial<Route>): string => {
  const params = new URLSearchParams()
  params.set("q", route.q ?? "")
  if (route.episode !== undefined) params.set("episode", route.episode)
  if (route.episode !== undefined && route.t !== undefined) params.set("t", String(route.t))
  return `#${params.toString()}`
}

// The snapshot's search page (build/SearchPage.ts writes it into the snapshot): episodes and
// transcript passages searched in the browser with the snapshot reader, which loads only the parts
// of the index a query needs from the same folder. Keyboard first: the search box has focus, ↓ and ↑
// move through the results, Enter opens one, Esc goes back (to the results, then to the box, then
// clears it), `/` returns to the box from anywhere.
import { openSnapshot, type SnapshotReader } from "@podcast-platform/snapshot-reader"
import { episodeView } from "./EpisodeView.js"
import { passagesPerPage } from "./Paging.js"
import { episodeItem, type HitJson, hitItem, type SummaryJson } from "./Results.js"
import { hashOf, type Route, routeOf } from "./Route.js"

const byId = <E extends HTMLElement>(id: string): E => {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as E
}

const input = byId<HTMLInputElement>("q")
const form = byId<HTMLFormElement>("search")
const status = byId("status")
const results = byId("results")
const episodesHeading = byId("episodes-heading")
const episodeList = byId<HTMLOListElement>("episode-results")
const moreEpisodes = byId<HTMLButtonElement>("more-episodes")
const transcripts = byId("transcripts")
const hitList = byId<HTMLOListElement>("transcript-results")
const moreHits = byId<HTMLButtonElement>("more-transcripts")
const article = byId("episode")
const siteTitle = document.title

const say = (text: string) => {
  status.textContent = text
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/** What the results show now: the query and where each list's next page starts. */
interface Shown {
  readonly q: string
  /** What the status said of these results. */
  readonly said: string
  episodesNext: number | null
  hitsNext: number | null
}

const start = async () => {
  let reader: SnapshotReader
  try {
    reader = await openSnapshot(new URL("./", location.href))
  } catch (error) {
    say(`This catalog cannot be searched here: ${error instanceof Error ? error.message : String(error)}`)
    return
  }
  void reader.preload().catch(() => undefined)

  let shown: Shown | undefined
  /** Each search or opening takes a number; an answer arriving after a newer request is dropped. */
  let sequence = 0
  /** The address of the episode last opened: its result gets focus again on the way back. */
  let opened: string | undefined

  const failed = (error: unknown, q: string) => {
    const message = error instanceof Error ? error.message : String(error)
    say(
      message.endsWith("two or more letters or digits")
        ? `Nothing to search for in “${q}”: type a word of two or more letters or digits.`
        : `The search failed: ${message}`
    )
  }

  const showResults = async (q: string): Promise<void> => {
    article.hidden = true
    article.replaceChildren()
    results.hidden = false
    document.title = siteTitle
    const query = q.trim()
    const mine = ++sequence
    if (shown?.q === query) {
      say(shown.said)
      return
    }
    try {
      // The passages first: theirs is the longer way (shards, then the hits' text blocks), so their
      // reads go out first and the episodes' work fits in while the text blocks are on their way.
      const hitsAnswer =
        query === ""
          ? Promise.resolve(undefined)
          : reader.searchTranscripts({ q: query, limit: passagesPerPage })
      const [episodes, hits] = await Promise.all([
        reader.searchEpisodeSummaries(query === "" ? {} : { q: query }),
        hitsAnswer
      ])
      if (mine !== sequence) return
      episodesHeading.textContent = query === "" ? "Newest episodes" : "Episodes"
      episodeList.replaceChildren(...episodes.data.map((episode) => episodeItem(episode, query)))
      hitList.replaceChildren(...(hits?.data ?? []).map((hit) => hitItem(hit, query)))
      transcripts.hidden = hits === undefined
      moreEpisodes.hidden = episodes.nextOffset === null
      moreHits.hidden = hits?.nextOffset === null || hits === undefined
      const said =
        query === ""
          ? "The newest episodes. Type to search the episodes and their transcripts."
          : episodes.total === 0 && hits?.total === 0
            ? `No episode or transcript passage matches “${query}”.`
            : `${plural(episodes.total, "episode", "episodes")} and ${plural(hits?.total ?? 0, "transcript passage", "transcript passages")} match “${query}”.`
      shown = { q: query, said, episodesNext: episodes.nextOffset, hitsNext: hits?.nextOffset ?? null }
      say(said)
    } catch (error) {
      if (mine !== sequence) return
      shown = undefined
      episodeList.replaceChildren()
      hitList.replaceChildren()
      moreEpisodes.hidden = true
      moreHits.hidden = true
      failed(error, query)
    }
  }

  /** Appends the next page of one list and focuses its first new result. */
  const more = async <A>(
    list: HTMLOListElement,
    button: HTMLButtonElement,
    next: (s: Shown) => number | null,
    page: (q: string, offset: number) => Promise<{ data: ReadonlyArray<A>; nextOffset: number | null }>,
    item: (result: A, q: string) => HTMLLIElement,
    remember: (s: Shown, offset: number | null) => void
  ) => {
    const current = shown
    const offset = current === undefined ? null : next(current)
    if (current === undefined || offset === null) return
    try {
      const answer = await page(current.q, offset)
      if (shown !== current) return
      const items = answer.data.map((result) => item(result, current.q))
      list.append(...items)
      remember(current, answer.nextOffset)
      button.hidden = answer.nextOffset === null
      items[0]?.querySelector<HTMLAnchorElement>("a.result")?.focus()
    } catch (error) {
      failed(error, current.q)
    }
  }
  moreEpisodes.addEventListener("click", () =>
    more<SummaryJson>(
      episodeList,
      moreEpisodes,
      (s) => s.episodesNext,
      (q, offset) => reader.searchEpisodeSummaries(q === "" ? { offset } : { q, offset }),
      episodeItem,
      (s, offset) => {
        s.episodesNext = offset
      }
    )
  )
  moreHits.addEventListener("click", () =>
    more<HitJson>(
      hitList,
      moreHits,
      (s) => s.hitsNext,
      (q, offset) => reader.searchTranscripts({ q, offset, limit: passagesPerPage }),
      hitItem,
      (s, offset) => {
        s.hitsNext = offset
      }
    )
  )

  const openEpisode = async (route: Route & { readonly episode: string }): Promise<void> => {
    const mine = ++sequence
    try {
      const episode = await reader.episode(route.episode)
      if (mine !== sequence) return
      if (episode === undefined) {
        say(`This catalog has no episode ${route.episode}.`)
        return
      }
      const { view, heading } = episodeView(episode, route.t, hashOf({ q: route.q }))
      results.hidden = true
      article.replaceChildren(...view)
      article.hidden = false
      document.title = `${episode.title} · ${siteTitle}`
      opened = location.hash
      say(`Episode: ${episode.title}`)
      heading.focus()
    } catch (error) {
      if (mine === sequence) failed(error, route.q)
    }
  }

  const apply = async (route: Route) => {
    if (document.activeElement !== input || input.value.trim() !== route.q.trim()) input.value = route.q
    if (route.episode !== undefined) return openEpisode({ ...route, episode: route.episode })
    await showResults(route.q)
    if (opened !== undefined) {
      const back = opened
      opened = undefined
      const link = [...results.querySelectorAll<HTMLAnchorElement>("a.result")].find(
        (a) => a.getAttribute("href") === back
      )
      link?.focus()
    }
  }

  // Typing searches as you go; the address follows without a history entry per keystroke.
  let typing: ReturnType<typeof setTimeout> | undefined
  const searchTyped = () => {
    clearTimeout(typing)
    // The search's first reads start before the address changes (a same-document navigation: 8 ms
    // of the main thread in a trace of the page).
    void showResults(input.value)
    history.replaceState(null, "", hashOf({ q: input.value }))
  }
  input.addEventListener("input", () => {
    clearTimeout(typing)
    typing = setTimeout(searchTyped, 120)
  })
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    searchTyped()
  })
  window.addEventListener("hashchange", () => void apply(routeOf(location.hash)))

  const resultLinks = () =>
    results.hidden ? [] : [...results.querySelectorAll<HTMLAnchorElement>("a.result")]
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return
    const active = document.activeElement
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const links = resultLinks()
      if (active === input) {
        if (event.key === "ArrowDown" && links[0] !== undefined) {
          event.preventDefault()
          links[0].focus()
        }
        return
      }
      const at = links.indexOf(active as HTMLAnchorElement)
      if (at === -1) return
      event.preventDefault()
      const next = event.key === "ArrowDown" ? links[at + 1] : at === 0 ? input : links[at - 1]
      next?.focus()
    } else if (event.key === "Escape") {
      if (!article.hidden) {
        event.preventDefault()
        location.hash = hashOf({ q: routeOf(location.hash).q })
      } else if (active !== input) {
        event.preventDefault()
        input.focus()
        input.select()
      } else if (input.value !== "") {
        event.preventDefault()
        input.value = ""
        searchTyped()
      }
    } else if (
      event.key === "/" &&
      !(active instanceof HTMLInputElement) &&
      !(active instanceof HTMLTextAreaElement)
    ) {
      event.preventDefault()
      input.focus()
      input.select()
    }
  })

  const route = routeOf(location.hash)
  // What was typed while the page loaded counts, unless the address names a search.
  await apply(location.hash === "" && input.value !== "" ? { ...route, q: input.value } : route)
  // The first answer is shown: what the browser test and the benchmark wait for.
  document.documentElement.dataset.ready = "true"
}

void start()

// One episode: its title and place, the player (starting at the matching paragraph when the passage
// has a time), the show notes, the people and the chapters (each a button that plays from its start).
// Everything from the snapshot is shown as text; show notes are the build's light Markdown (paragraphs,
// `- ` list items, `[label](https://…)` links), read here into elements, never into HTML.
import { clock, date, duration, el, outsideLink } from "./Dom.js"
import { type EpisodeJson, placeOf } from "./Results.js"

const linkPattern = /\[([^\]]+)\]\(([^)\s]+)\)/g

/** A line of show notes: text, with `[label](href)` as links where the href is http(s). */
const inline = (line: string): Array<Node> => {
  const nodes: Array<Node> = []
  let at = 0
  for (const match of line.matchAll(linkPattern)) {
    const index = match.index ?? 0
    if (index > at) nodes.push(document.createTextNode(line.slice(at, index)))
    nodes.push(outsideLink(match[2] ?? "", match[1] ?? ""))
    at = index + match[0].length
  }
  if (at < line.length) nodes.push(document.createTextNode(line.slice(at)))
  return nodes
}

/** Show notes as paragraphs and lists. */
export const showNotes = (markdown: string): Array<HTMLElement> =>
  markdown
    .split(/\n{2,}/)
    .map((block) => block.split("\n").filter((line) => line.trim() !== ""))
    .filter((lines) => lines.length > 0)
    .map((lines) =>
      lines.every((line) => line.startsWith("- "))
        ? el("ul", {}, ...lines.map((line) => el("li", {}, ...inline(line.slice(2)))))
        : el("p", {}, ...lines.flatMap((line, i) => [...(i > 0 ? [el("br")] : []), ...inline(line)]))
    )

const section = (id: string, heading: string, ...content: ReadonlyArray<Node | false>) =>
  el("section", { "aria-labelledby": id }, el("h3", { id }, heading), ...content)

export interface EpisodeView {
  readonly view: Array<HTMLElement>
  /** The heading, focused when the view opens. */
  readonly heading: HTMLElement
  readonly audio: HTMLAudioElement
}

/**
 * The episode's view; `start` is where the player starts (the passage's paragraph), `back` the
 * address of the results it was opened from.
 */
export const episodeView = (episode: EpisodeJson, start: number | undefined, back: string): EpisodeView => {
  // preload="none": nothing is fetched from the publisher until the listener presses play.
  const audio = el("audio", {
    controls: "",
    preload: "none",
    src: episode.audio.url,
    "aria-describedby": "episode-start"
  })
  if (start !== undefined) {
    // Before anything is loaded this is the default playback start position: play starts there.
    audio.currentTime = start
    audio.dataset.start = String(start)
  }
  const playFrom = (seconds: number) => {
    audio.currentTime = seconds
    void audio.play().catch(() => undefined)
  }
  const heading = el("h2", { id: "episode-title", tabindex: "-1" }, episode.title)
  const view = [
    el("p", { class: "back" }, el("a", { href: back }, "Back to the results"), " (Esc)"),
    heading,
    el(
      "p",
      { class: "meta" },
      `${placeOf(episode)} · ${date(episode.publishedAt)} · ${duration(episode.durationSeconds)}`
    ),
    episode.subtitle !== "" && el("p", { class: "about" }, episode.subtitle),
    section(
      "episode-listen",
      "Listen",
      audio,
      el(
        "p",
        { id: "episode-start", class: "hint" },
        start === undefined
          ? "The audio comes from the publisher when you press play."
          : `The player starts at ${clock(start)}, where the passage you found begins. The audio comes from the publisher when you press play.`
      )
    ),
    section("episode-description", "About this episode", el("p", {}, episode.description)),
    episode.showNotes.trim() !== "" &&
      section("episode-notes", "Show notes", el("div", { class: "notes" }, ...showNotes(episode.showNotes))),
    episode.people.length > 0 &&
      section(
        "episode-people",
        "People",
        el(
          "ul",
          { class: "people" },
          ...episode.people.map((person) =>
            el(
              "li",
              {},
              outsideLink(person.url, person.name),
              " ",
              el("span", { class: "role" }, person.role)
            )
          )
        )
      ),
    episode.chapters.length > 0 &&
      section(
        "episode-chapters",
        "Chapters",
        el(
          "ol",
          { class: "chapters" },
          ...episode.chapters.map((chapter) => {
            const button = el(
              "button",
              { type: "button", "data-start": String(chapter.startSeconds) },
              el("span", { class: "time" }, clock(chapter.startSeconds)),
              " ",
              chapter.title
            )
            button.addEventListener("click", () => playFrom(chapter.startSeconds))
            return el("li", {}, button)
          })
        )
      ),
    el("p", { class: "outside" }, outsideLink(episode.links.official, "This episode on the publisher's site"))
  ].filter((node): node is HTMLElement => node !== false)
  return { view, heading, audio }
}

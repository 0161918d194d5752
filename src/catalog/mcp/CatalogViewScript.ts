// The script of the catalog's MCP App view (CatalogView.ts): plain JavaScript that speaks the
// extension's JSON-RPC over postMessage with its host (`ui/initialize`, then tool input and results,
// `tools/call` through the host for paging and opening an episode, `ui/open-link`, its size and the
// host's theme), and renders the catalog's tool results with DOM text nodes only, never as markup.
// It is written without the extension's App class, which would bring the MCP SDK and zod into the
// page (about 500 KB); the messages are few and the host-side bridge checks every one (test/catalog/
// mcp-app-host.test.ts drives this view with @modelcontextprotocol/ext-apps' AppBridge).
// Kept free of backticks and dollar-brace, so it sits in this raw template literal as it runs.
export const catalogViewScript = String.raw`"use strict";
(() => {
  const main = document.getElementById("view");
  const root = document.documentElement;
  const pending = new Map();
  let nextId = 1;
  let hostCapabilities = {};
  let locale = "en";
  let toolName;
  let toolArguments = {};
  /** The list on screen (episodes or transcript hits), to page it and to come back to it. */
  let list;

  const post = (message) => window.parent.postMessage(message, "*");
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ jsonrpc: "2.0", id, method, params });
    });
  const notify = (method, params) => post({ jsonrpc: "2.0", method, params });

  // Elements from text: every value of the catalog goes in as a text node or an attribute value.
  const el = (tag, attributes, children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "text") node.textContent = String(value);
      else if (name === "onclick") node.addEventListener("click", value);
      else node.setAttribute(name, String(value));
    }
    for (const child of children || []) if (child !== undefined && child !== null) node.append(child);
    return node;
  };
  const webUrl = (value) => {
    try {
      const url = new URL(String(value));
      return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
    } catch {
      return undefined;
    }
  };
  const clock = (seconds) => {
    const whole = Math.max(0, Math.floor(Number(seconds) || 0));
    const h = Math.floor(whole / 3600);
    const m = Math.floor((whole % 3600) / 60);
    const s = String(whole % 60).padStart(2, "0");
    return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
  };
  const day = (iso) => {
    const date = new Date(String(iso));
    if (Number.isNaN(date.getTime())) return String(iso);
    try {
      return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(date);
    } catch {
      return date.toISOString().slice(0, 10);
    }
  };
  const numbering = (item) =>
    "Season " + item.session + ", " + (item.episodeNumber > 0 ? "episode " + item.episodeNumber : "unnumbered");
  /**
   * The first words of Markdown show notes as plain text: their prose paragraphs (lists, usually of
   * links, and headings left out), links keeping their words, marks dropped.
   */
  const excerpt = (markdown, length) => {
    const text = String(markdown || "")
      .split(/\n\s*\n/)
      .filter((block) => !/^\s{0,3}([-*+]|\d+\.|#{1,6})\s/.test(block))
      .join(" ")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/^\s{0,3}>\s+/gm, "")
      .replace(/(\*\*|__|[*_]|\x60)/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (text.length <= length) return text;
    const cut = text.lastIndexOf(" ", length);
    return text.slice(0, cut > length / 2 ? cut : length) + "\u2026";
  };
  const textOf = (result) =>
    (Array.isArray(result && result.content) ? result.content : [])
      .filter((block) => block && block.type === "text")
      .map((block) => String(block.text))
      .join("\n");

  const show = (...nodes) => main.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined));
  /** After the person moved within the view (opened an episode, went back): the new heading. */
  const focusHeading = () => {
    const heading = main.querySelector("h1");
    if (heading !== null) heading.focus();
  };
  const message = (text, isError) =>
    el("p", { class: isError ? "error" : "note", role: isError ? "alert" : "status", text });
  const canCallTools = () => Boolean(hostCapabilities.serverTools);

  /** A link the host opens (ui/open-link) when it can, else a plain link. */
  const link = (url, text) => {
    const href = webUrl(url);
    if (href === undefined) return el("span", { text });
    return el("a", {
      href,
      target: "_blank",
      rel: "noopener noreferrer",
      text,
      onclick: (event) => {
        if (!hostCapabilities.openLinks) return;
        event.preventDefault();
        request("ui/open-link", { url: href }).catch(() => {});
      }
    });
  };

  /** Plays the audio at source (a media fragment names where), or seeks to start when it is already loaded. */
  const playFrom = (player, source, start) => {
    const url = webUrl(source);
    if (url === undefined) return;
    if (player.readyState > 0 && player.currentSrc.split("#")[0] === url.split("#")[0]) player.currentTime = start;
    else player.src = url;
    player.play().catch(() => {});
  };

  /** Calls a tool of the server through the host: its structured answer, or a message shown in status. */
  const callTool = async (name, args, status) => {
    status.replaceChildren(message("Loading\u2026", false));
    try {
      const result = await request("tools/call", { name, arguments: args });
      if (result && result.isError) {
        status.replaceChildren(message(textOf(result) || name + " answered an error.", true));
        return undefined;
      }
      status.replaceChildren();
      return result && result.structuredContent;
    } catch (error) {
      status.replaceChildren(message("The host could not call " + name + ": " + (error && error.message), true));
      return undefined;
    }
  };

  const showEpisode = (episode, fromList) => {
    const player = el("audio", { controls: "", preload: "none", "aria-label": "Audio of " + episode.title });
    const source = webUrl(episode.audio && episode.audio.url);
    if (source !== undefined) player.src = source;
    const people = Array.isArray(episode.people) ? episode.people : [];
    const chapters = Array.isArray(episode.chapters) ? episode.chapters : [];
    const notes = excerpt(episode.showNotes, 420) || excerpt(episode.description, 420);
    const status = el("div");
    show(
      el("article", {}, [
        el("h1", { tabindex: "-1", text: episode.title }),
        el("p", {
          class: "facts",
          text: [numbering(episode), day(episode.publishedAt), clock(episode.durationSeconds)].join(" \u00b7 ")
        }),
        episode.subtitle ? el("p", { text: episode.subtitle }) : null,
        people.length > 0
          ? el("p", { text: "With " + people.map((person) => person.name + " (" + person.role + ")").join(", ") })
          : null,
        player,
        notes ? el("h2", { text: "Show notes" }) : null,
        notes ? el("p", { text: notes }) : null,
        chapters.length > 0 ? el("h2", { text: "Chapters" }) : null,
        chapters.length > 0
          ? el(
              "ol",
              { class: "chapters" },
              chapters.map((chapter) =>
                el("li", {}, [
                  el("button", {
                    type: "button",
                    text: clock(chapter.startSeconds),
                    "aria-label": "Play from " + clock(chapter.startSeconds) + ": " + chapter.title,
                    onclick: () => playFrom(player, source + "#t=" + chapter.startSeconds, chapter.startSeconds)
                  }),
                  " " + chapter.title
                ])
              )
            )
          : null,
        el("p", {}, [link(episode.links && episode.links.official, "The episode on the publisher's site")]),
        fromList
          ? el("button", {
              type: "button",
              text: "Back to the results",
              onclick: () => {
                showList();
                focusHeading();
              }
            })
          : null,
        status
      ])
    );
  };

  const openEpisode = async (slug, status) => {
    const detail = await callTool("get_episode", { slug }, status);
    if (detail && detail.data) {
      showEpisode(detail.data, list !== undefined);
      focusHeading();
    }
  };

  const episodeItem = (episode, status) =>
    el("li", {}, [
      el("article", { tabindex: "-1" }, [
        el("h2", {}, [
          canCallTools()
            ? el("button", { type: "button", class: "title", text: episode.title, onclick: () => openEpisode(episode.slug, status) })
            : episode.title
        ]),
        el("p", { class: "facts", text: [numbering(episode), day(episode.publishedAt)].join(" \u00b7 ") }),
        episode.subtitle ? el("p", { text: episode.subtitle }) : null
      ])
    ]);

  const highlighted = (text, spans) => {
    const paragraph = el("p");
    let at = 0;
    const ordered = (Array.isArray(spans) ? spans : []).slice().sort((a, b) => a[0] - b[0]);
    for (const [start, end] of ordered) {
      if (!(start >= at && end > start && end <= text.length)) continue;
      paragraph.append(text.slice(at, start), el("mark", { text: text.slice(start, end) }));
      at = end;
    }
    paragraph.append(text.slice(at));
    return paragraph;
  };

  const hitItem = (hit, player, nowPlaying, status) => {
    const timed = typeof hit.startSeconds === "number";
    const where = [numbering(hit)];
    if (hit.speaker) where.push(hit.speaker);
    where.push(timed ? "at " + clock(hit.startSeconds) : "paragraph " + (hit.paragraphIndex + 1) + ", not timed");
    return el("li", {}, [
      el("article", { tabindex: "-1" }, [
        el("h2", { text: hit.title }),
        el("p", { class: "facts", text: where.join(" \u00b7 ") }),
        el("blockquote", {}, [highlighted(String(hit.snippet), hit.highlights)]),
        el("button", {
          type: "button",
          text: timed ? "Play from " + clock(hit.startSeconds) : "Play the episode",
          "aria-label": (timed ? "Play from " + clock(hit.startSeconds) : "Play the episode") + ": " + hit.title,
          onclick: () => {
            nowPlaying.textContent = timed
              ? hit.title + ", from " + clock(hit.startSeconds)
              : hit.title + ", from the start (this passage has no time)";
            playFrom(player, hit.links && hit.links.audioAt, timed ? hit.startSeconds : 0);
          }
        }),
        canCallTools()
          ? el("button", {
              type: "button",
              text: "Open the episode",
              "aria-label": "Open the episode: " + hit.title,
              onclick: () => openEpisode(hit.slug, status)
            })
          : null
      ])
    ]);
  };

  function showList() {
    if (list === undefined) return;
    const { kind, args, items } = list;
    const status = el("div");
    const query = args.query ? "\u201c" + args.query + "\u201d" : "";
    const season = args.session ? ", season " + args.session : "";
    const title =
      kind === "hits"
        ? "Transcript passages matching " + query + season
        : (query ? "Episodes matching " + query : "Latest episodes") + season;
    const player = el("audio", { controls: "", preload: "none", "aria-label": "Passage audio" });
    const nowPlaying = el("p", { class: "note", text: "Choose a passage to play it." });
    const rows = el(
      "ol",
      { class: "results" },
      items.map((item) => (kind === "hits" ? hitItem(item, player, nowPlaying, status) : episodeItem(item, status)))
    );
    const more =
      list.nextCursor !== null && canCallTools()
        ? el("button", {
            type: "button",
            text: kind === "hits" ? "More passages" : "More episodes",
            onclick: async (event) => {
              const button = event.currentTarget;
              button.disabled = true;
              const tool = kind === "hits" ? "search_transcripts" : "search_episodes";
              const page = await callTool(tool, Object.assign({}, args, { cursor: list.nextCursor }), status);
              if (page && Array.isArray(page.data)) {
                list = { kind, args, items: items.concat(page.data), nextCursor: page.nextCursor };
                showList();
                // The first new result takes the focus the button had.
                const added = main.querySelectorAll(".results > li > article")[items.length];
                if (added !== undefined) added.focus();
              } else {
                button.disabled = false;
              }
            }
          })
        : null;
    show(
      el("h1", { tabindex: "-1", text: title }),
      items.length === 0 ? message(kind === "hits" ? "No transcript passage matches." : "No episode matches.", false) : null,
      kind === "hits" && items.length > 0 ? el("section", { class: "player", "aria-label": "Player" }, [nowPlaying, player]) : null,
      items.length > 0 ? rows : null,
      more,
      status
    );
  }

  const showResult = (result) => {
    if (!result || result.isError) {
      show(message(textOf(result) || "The tool answered an error.", true));
      return;
    }
    const content = result.structuredContent;
    if (content && Array.isArray(content.data)) {
      const first = content.data[0];
      const kind =
        first !== null && typeof first === "object"
          ? "paragraphIndex" in first
            ? "hits"
            : "episodes"
          : toolName === "search_transcripts"
            ? "hits"
            : "episodes";
      list = { kind, args: toolArguments, items: content.data, nextCursor: content.nextCursor ?? null };
      showList();
    } else if (content && content.data && typeof content.data === "object") {
      list = undefined;
      showEpisode(content.data, false);
    } else {
      show(el("p", { text: textOf(result) }));
    }
  };

  /** The host's context: its theme and style variables, locale and the tool this view shows. */
  const applyContext = (context) => {
    if (!context || typeof context !== "object") return;
    if (context.theme === "light" || context.theme === "dark") root.dataset.theme = context.theme;
    const variables = context.styles && context.styles.variables;
    if (variables && typeof variables === "object") {
      for (const [name, value] of Object.entries(variables)) {
        if (name.startsWith("--") && typeof value === "string") root.style.setProperty(name, value);
      }
    }
    if (typeof context.locale === "string") locale = context.locale;
    if (context.toolInfo && context.toolInfo.tool) toolName = context.toolInfo.tool.name;
  };

  const onNotification = (method, params) => {
    if (method === "ui/notifications/tool-input") toolArguments = (params && params.arguments) || {};
    else if (method === "ui/notifications/tool-result") showResult(params);
    else if (method === "ui/notifications/tool-cancelled") show(message("The tool call was cancelled.", false));
    else if (method === "ui/notifications/host-context-changed") applyContext(params);
  };

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (!data || data.jsonrpc !== "2.0") return;
    if (typeof data.method !== "string") {
      const waiting = pending.get(data.id);
      if (waiting === undefined) return;
      pending.delete(data.id);
      if (data.error) waiting.reject(new Error(String(data.error.message)));
      else waiting.resolve(data.result);
    } else if (data.id !== undefined) {
      // The host's requests: a ping, and the teardown it announces (nothing of ours to save).
      if (data.method === "ping" || data.method === "ui/resource-teardown") post({ jsonrpc: "2.0", id: data.id, result: {} });
      else post({ jsonrpc: "2.0", id: data.id, error: { code: -32601, message: "Method not found: " + data.method } });
    } else {
      onNotification(data.method, data.params);
    }
  });

  // The height the view needs, told to the host whenever it changes.
  let reported = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === reported) return;
    reported = height;
    notify("ui/notifications/size-changed", { height });
  }).observe(document.body);

  request("ui/initialize", {
    appInfo: { name: "podcast-catalog-view", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
    protocolVersion: "2026-01-26"
  }).then(
    (result) => {
      hostCapabilities = (result && result.hostCapabilities) || {};
      applyContext(result && result.hostContext);
      notify("ui/notifications/initialized", {});
    },
    (error) => show(message("The host refused the view: " + (error && error.message), true))
  );
})();
`

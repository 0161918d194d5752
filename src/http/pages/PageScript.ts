// The pages' one script, a progressive enhancement and never a requirement: a button marked
// `data-copy="<id>"` (hidden without script) copies the text of the element with that id, e.g. a new
// API token, which is also shown as selectable text for browsers without script. Served like the
// stylesheet, from the service, under a content-hashed path; only pages that use it allow it (CSP).
import { createHash } from "node:crypto"

export const pageScriptText = `"use strict";
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.getAttribute("data-copy"));
  const status = document.getElementById(button.getAttribute("data-copy") + "-status");
  if (source === null) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const say = (text) => { if (status !== null) status.textContent = text; };
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      say("Copied.");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      say("Selected: press Ctrl+C (or \\u2318C) to copy.");
    }
  });
}
`

const hash = createHash("sha256").update(pageScriptText).digest("hex").slice(0, 16)

/** The script's path: its content hash is in the name, so it is served as immutable. */
export const pageScriptPath: `/${string}` = `/assets/enhance-${hash}.js`

// The documents send readers only where a clone of the repository can follow: every relative link of
// README.md, content/docs and the maintainers' guides resolves to a file of the repository, and none
// points outside it (such as the ../shared folder of the machine the service was written on).
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const repository = resolve(import.meta.dirname, "..", "..")

const pages = [
  "README.md",
  "content/README.md",
  "packages/catalog-client/README.md",
  "docs/operations.md",
  "docs/development.md",
  ...readdirSync(join(repository, "content", "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `content/docs/${name}`)
]

/** Markdown link targets that are not URLs or anchors. */
const relativeLinks = (text: string) =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => (match[1] ?? "").split("#")[0] ?? "")
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target))

describe("the documents' links", () => {
  for (const page of pages) {
    it(`${page} links only to files of the repository`, () => {
      const text = readFileSync(join(repository, page), "utf8")
      for (const target of relativeLinks(text)) {
        const file = resolve(dirname(join(repository, page)), target)
        expect(relative(repository, file).startsWith(".."), `${page} → ${target}`).toBe(false)
        expect(existsSync(file), `${page} → ${target}`).toBe(true)
      }
      expect(text).not.toContain("../shared")
    })
  }
})

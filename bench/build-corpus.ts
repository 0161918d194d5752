// Build benchmark on the Changelog corpus (../shared/corpus, CC BY-SA 4.0):
//  1. the whole build of feeds/changelog-master.xml in a child process: wall time, peak memory,
//     snapshot size and index size;
//  2. in this process, the transcript index built from the same paragraphs with FlexSearch (our
//     options) and with MiniSearch (its defaults), one after the other: time, export size,
//     reload time and one query's latency.
// `npm run bench -- build-corpus`; prints a Markdown table for BENCHMARKS.md.
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import MiniSearch from "minisearch"
import { makeParagraphIndex, tokenize } from "../src/catalog/SearchOptions.js"
import { buildCommand } from "./_servers/StartCommand.js"

const corpus = resolve(import.meta.dirname, "../../shared/corpus/changelog")
const feed = join(corpus, "feeds/changelog-master.xml")
if (!existsSync(feed)) {
  console.log("The corpus is not at ../shared/corpus/changelog; nothing to measure.")
  process.exit(0)
}

const folderBytes = (path: string, keep: (name: string) => boolean = () => true): number =>
  readdirSync(path, { withFileTypes: true }).reduce((sum, entry) => {
    const full = join(path, entry.name)
    if (entry.isDirectory()) return sum + folderBytes(full, keep)
    return sum + (keep(entry.name) ? statSync(full).size : 0)
  }, 0)

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

// 1. The full build, measured from outside by GNU time so that peak RSS includes everything.
const scratch = mkdtempSync(join(tmpdir(), "bench-build-"))
const out = join(scratch, "snapshot")
const started = performance.now()
const build = spawnSync(
  "/usr/bin/time",
  ["-f", "%M", process.execPath, ...buildCommand(["--quiet", "--feed", feed, "--out", out])],
  { encoding: "utf8" }
)
const wallSeconds = (performance.now() - started) / 1000
if (build.status !== 0) {
  console.error(build.stderr)
  process.exit(1)
}
const peakKb = Number(build.stderr.trim().split("\n").pop())
const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"))
const snapshotBytes = folderBytes(out)
const jsonBytes = folderBytes(out, (name) => name.endsWith(".json"))
const indexBytes = (manifest.index as Array<string>).reduce(
  (sum, path) => sum + statSync(join(out, path)).size,
  0
)

// 2. The transcript index alone, FlexSearch against MiniSearch, over the same paragraphs.
const paragraphs: Array<string> = []
for (const path of Object.values(manifest.transcripts as Record<string, string>)) {
  for (const paragraph of JSON.parse(readFileSync(join(out, path), "utf8")).data.paragraphs)
    paragraphs.push(paragraph.text)
}
rmSync(scratch, { recursive: true, force: true })

const time = async <A>(work: () => A | Promise<A>) => {
  const t = performance.now()
  const value = await work()
  return { value, ms: performance.now() - t }
}
const queryLatency = (search: () => unknown) => {
  for (let i = 0; i < 20; i++) search()
  const runs = 200
  const t = performance.now()
  for (let i = 0; i < runs; i++) search()
  return (performance.now() - t) / runs
}
const query = "open source maintainers"

const flexBuild = await time(() => {
  const index = makeParagraphIndex()
  paragraphs.forEach((text, id) => {
    index.add({ id, text })
  })
  return index
})
const flexExport = await time(async () => {
  const chunks: Array<[string, string]> = []
  await flexBuild.value.export(async (key, data) => {
    chunks.push([key, data])
  })
  return chunks
})
const flexExportBytes = flexExport.value.reduce((sum, [, data]) => sum + Buffer.byteLength(data), 0)
const flexLoad = await time(() => {
  const index = makeParagraphIndex()
  for (const [key, data] of flexExport.value) index.import(key, data)
  return index
})
const flexQuery = queryLatency(() => flexLoad.value.search(query, { limit: 1000 }))
const flexHits = flexLoad.value.search(query, { limit: 100_000 })[0]?.result.length ?? 0

const miniOptions = { fields: ["text"], storeFields: [], tokenize: (text: string) => tokenize(text) }
const miniBuild = await time(() => {
  const index = new MiniSearch<{ id: number; text: string }>(miniOptions)
  index.addAll(paragraphs.map((text, id) => ({ id, text })))
  return index
})
const miniExport = await time(() => JSON.stringify(miniBuild.value))
const miniLoad = await time(() => MiniSearch.loadJSON(miniExport.value, miniOptions))
const miniQuery = queryLatency(() => miniLoad.value.search(query, { combineWith: "AND" }))
const miniHits = miniLoad.value.search(query, { combineWith: "AND" }).length

console.log(`
### Build of changelog-master.xml (${manifest.counts.episodes} episodes, ${manifest.counts.transcripts} transcripts, ${manifest.counts.words} words)

| measure | value |
|---|---|
| wall time | ${wallSeconds.toFixed(1)} s |
| peak memory (RSS) | ${(peakKb / 1024).toFixed(0)} MB |
| snapshot on disk (JSON + .gz + .br) | ${mb(snapshotBytes)} |
| snapshot JSON only | ${mb(jsonBytes)} |
| search index files (episodes, paragraphs, docs) | ${mb(indexBytes)} |

### Transcript index: FlexSearch vs MiniSearch, same ${paragraphs.length} paragraphs, same tokenizer

| | FlexSearch 0.8 (ours) | MiniSearch 7.2 | ratio |
|---|---|---|---|
| build | ${(flexBuild.ms / 1000).toFixed(1)} s | ${(miniBuild.ms / 1000).toFixed(1)} s | ${(miniBuild.ms / flexBuild.ms).toFixed(1)}× |
| serialized size | ${mb(flexExportBytes)} | ${mb(Buffer.byteLength(miniExport.value))} | ${(Buffer.byteLength(miniExport.value) / flexExportBytes).toFixed(1)}× |
| load from serialized | ${(flexLoad.ms / 1000).toFixed(2)} s | ${(miniLoad.ms / 1000).toFixed(2)} s | ${(miniLoad.ms / flexLoad.ms).toFixed(1)}× |
| query "${query}" (AND) | ${flexQuery.toFixed(3)} ms, ${flexHits} hits | ${miniQuery.toFixed(3)} ms, ${miniHits} hits | ${(miniQuery / flexQuery).toFixed(1)}× |
`)

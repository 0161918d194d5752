// Baseline servers for the catalog benchmark, serving the very bytes our server serves: one episode
// detail and one transcript detail read from a snapshot, with their ETags and a minimal
// If-None-Match check. `node --import tsx bench/_servers/baseline.ts <raw|fastify> <snapshot> <port>`.
import { readFileSync } from "node:fs"
import * as Http from "node:http"
import { join } from "node:path"
import Fastify from "fastify"

const [kind, directory = "", portText = "0"] = process.argv.slice(2)
const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8"))
const slug = process.env.BENCH_SLUG ?? (Object.keys(manifest.transcripts)[0] as string)
const load = (path: string) => ({
  body: readFileSync(join(directory, path)),
  etag: `"${manifest.files[path].sha256.slice(0, 32)}"`
})
const routes = new Map([
  [`/v1/episodes/${slug}`, load(manifest.episodes[slug])],
  [`/v1/transcripts/${slug}`, load(manifest.transcripts[slug])]
])
const cacheControl = "public, max-age=300, stale-while-revalidate=86400"
// Ours offers gzip and br too, so its answers vary by Accept-Encoding: the same header here keeps the
// bytes on the wire the same.
const vary = "Accept-Encoding"

if (kind === "raw") {
  Http.createServer((request, response) => {
    const found = routes.get(request.url ?? "")
    if (!found) {
      response.writeHead(404).end()
      return
    }
    if (request.headers["if-none-match"] === found.etag) {
      response.writeHead(304, { etag: found.etag, "cache-control": cacheControl, vary }).end()
      return
    }
    response
      .writeHead(200, {
        etag: found.etag,
        "cache-control": cacheControl,
        vary,
        "content-type": "application/json",
        "content-length": found.body.byteLength
      })
      .end(found.body)
  }).listen(Number(portText), "127.0.0.1", () => console.log("ready"))
} else {
  const app = Fastify({ logger: false })
  for (const [path, found] of routes) {
    app.get(path, (request, reply) => {
      reply.header("etag", found.etag).header("cache-control", cacheControl).header("vary", vary)
      if (request.headers["if-none-match"] === found.etag) return reply.code(304).send()
      return reply.type("application/json").send(found.body)
    })
  }
  app.listen({ port: Number(portText), host: "127.0.0.1" }).then(() => console.log("ready"))
}

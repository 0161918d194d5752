// Baseline servers for the catalog benchmarks, serving the very bytes our server serves: one episode
// detail and one transcript detail copied, with their headers, from a running server of ours (each
// instance names its own origin in its links, so the snapshot's files are not what it sends), and a
// minimal If-None-Match check. `node --import tsx bench/_servers/baseline.ts <raw|fastify> <ours> <port>`
// where <ours> is that server's origin, e.g. http://127.0.0.1:18401.
import * as Http from "node:http"
import Fastify from "fastify"

const [kind, source = "", portText = "0"] = process.argv.slice(2)
const slug = process.env.BENCH_SLUG ?? ""

interface Copied {
  readonly body: Buffer
  readonly etag: string
  readonly cacheControl: string
  readonly vary: string
  readonly contentType: string
}

// autocannon sends no Accept-Encoding, so the identity bytes are the ones to serve.
const copy = async (path: string): Promise<Copied> => {
  const answer = await fetch(`${source}${path}`, { headers: { "accept-encoding": "identity" } })
  const header = (name: string) => {
    const value = answer.headers.get(name)
    if (answer.status !== 200 || value === null)
      throw new Error(`${source}${path}: ${answer.status}, no ${name}`)
    return value
  }
  return {
    etag: header("etag"),
    cacheControl: header("cache-control"),
    vary: header("vary"),
    contentType: header("content-type"),
    body: Buffer.from(await answer.arrayBuffer())
  }
}

const routes = new Map<string, Copied>()
for (const path of [`/v1/episodes/${slug}`, `/v1/transcripts/${slug}`]) routes.set(path, await copy(path))

if (kind === "raw") {
  Http.createServer((request, response) => {
    const found = routes.get(request.url ?? "")
    if (!found) {
      response.writeHead(404).end()
      return
    }
    if (request.headers["if-none-match"] === found.etag) {
      response
        .writeHead(304, { etag: found.etag, "cache-control": found.cacheControl, vary: found.vary })
        .end()
      return
    }
    response
      .writeHead(200, {
        etag: found.etag,
        "cache-control": found.cacheControl,
        vary: found.vary,
        "content-type": found.contentType,
        "content-length": found.body.byteLength
      })
      .end(found.body)
  }).listen(Number(portText), "127.0.0.1", () => console.log("ready"))
} else {
  const app = Fastify({ logger: false })
  for (const [path, found] of routes) {
    app.get(path, (request, reply) => {
      reply.header("etag", found.etag).header("cache-control", found.cacheControl).header("vary", found.vary)
      if (request.headers["if-none-match"] === found.etag) return reply.code(304).send()
      return reply.type(found.contentType).send(found.body)
    })
  }
  app.listen({ port: Number(portText), host: "127.0.0.1" }).then(() => console.log("ready"))
}

// A plain static file server on loopback, like `python3 -m http.server`: the folder's files as they
// are (no Content-Encoding), a type by extension, `index.html` for a folder, 404 for anything else.
// What the snapshot reader and the snapshot's search page are read from in tests, with no service.
import { readFile, stat } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize, sep } from "node:path"
import * as Effect from "effect/Effect"

const types: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".gz": "application/gzip",
  ".br": "application/octet-stream"
}

export interface StaticHost {
  /** The folder's root, ending in `/`. */
  readonly url: string
  readonly origin: string
}

/** Serves `directory` until the scope closes. */
export const staticHost = (directory: string) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<StaticHost & { readonly close: () => void }>((resolve) => {
          const root = normalize(directory)
          const server = createServer((req, res) => {
            void (async () => {
              try {
                const path = decodeURIComponent(new URL(req.url ?? "/", "http://host").pathname)
                let file = normalize(join(root, path))
                if (file !== root && !file.startsWith(`${root}${sep}`)) throw new Error("outside the folder")
                if ((await stat(file)).isDirectory()) file = join(file, "index.html")
                const body = await readFile(file)
                res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" })
                res.end(body)
              } catch {
                res.writeHead(404).end()
              }
            })()
          })
          server.listen(0, "127.0.0.1", () => {
            const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
            resolve({ url: `${origin}/`, origin, close: () => server.close() })
          })
        })
    ),
    (host) => Effect.sync(host.close)
  )

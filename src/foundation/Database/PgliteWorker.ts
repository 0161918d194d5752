// The embedded database's own thread: PGlite runs PostgreSQL compiled to WebAssembly synchronously,
// so on the main thread every query would stop the HTTP server for its duration, and opening the
// database would add its start-up to the service's. Here it runs beside the server, which reaches
// it over loopback like any PostgreSQL. Messages: the parent sends "stop"; this thread answers
// `{ ready: port }`, `{ failed: message }` or `{ stopped: true }`.
// From source on Node 22.18+ and 24, Node runs this file as it is, stripping its types
// (EmbeddedPostgres.ts): erasable syntax only (no enum, namespace or parameter property), and
// imports of packages only (a relative import would have to name its .ts file).
import { parentPort, workerData } from "node:worker_threads"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"

/** What the parent hands over: the folder, the buffer cache's size, and PGlite's PostgreSQL already compiled. */
export interface PgliteWorkerData {
  readonly dataDir: string
  /** PostgreSQL's `shared_buffers` (validated by FoundationConfig). */
  readonly sharedBuffers: string
  readonly pgliteWasmModule: WebAssembly.Module
}

export type FromPglite =
  | { readonly ready: number }
  | { readonly failed: string }
  | { readonly stopped: true; readonly problem?: string }

const port = parentPort
if (port === null) throw new Error("PgliteWorker.ts runs as a worker thread")
const post = (message: FromPglite) => port.postMessage(message)
const { dataDir, sharedBuffers, pgliteWasmModule } = workerData as PgliteWorkerData
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

try {
  const db = await PGlite.create(dataDir, {
    pgliteWasmModule,
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`]
  })
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 })
  await server.start()
  const address = server.getServerConn()
  port.on("message", async (message: unknown) => {
    if (message !== "stop") return
    const problems: Array<string> = []
    await server.stop().catch((error: unknown) => problems.push(`socket: ${describe(error)}`))
    await db.close().catch((error: unknown) => problems.push(`database: ${describe(error)}`))
    post(problems.length === 0 ? { stopped: true } : { stopped: true, problem: problems.join("; ") })
    port.close()
  })
  post({ ready: Number(address.slice(address.lastIndexOf(":") + 1)) })
} catch (error) {
  post({ failed: describe(error) })
  port.close()
}

// The drain on a plain node server: a request begun before draining (when nothing is counted per
// request) is still awaited and answered, told to close its connection; a connection idle when
// draining begins is closed once idle for `idleMs`; requests begun while draining are counted too;
// a connection the kernel completed before the listener closed is accepted and answered, not reset.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { Worker } from "node:worker_threads"
import { describe, expect, it } from "@effect/vitest"
import { makeConnectionDrain } from "../../src/http/ConnectionDrain.js"

interface Answer {
  readonly status: number
  readonly connection: string | undefined
  readonly at: number
}

const get = (agent: Http.Agent, port: number, path: string) =>
  new Promise<Answer>((resolve, reject) => {
    Http.get({ host: "127.0.0.1", port, path, agent }, (response) => {
      response.resume()
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, at: Date.now() })
      )
    }).on("error", reject)
  })

const startServer = async () => {
  const server = Http.createServer()
  const drain = makeConnectionDrain(server)
  server.on("request", (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    drain.track(request, response)
    const delay = request.url === "/slow" ? 400 : 0
    setTimeout(() => response.end("done"), delay)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, drain, port: (server.address() as AddressInfo).port }
}

describe("ConnectionDrain", () => {
  it("awaits a request begun before draining, closes idle connections after idleMs", async () => {
    const { drain, port } = await startServer()
    const slowAgent = new Http.Agent({ keepAlive: true, maxSockets: 1 })
    const idleAgent = new Http.Agent({ keepAlive: true, maxSockets: 1 })
    // An idle keep-alive connection, and a slow request in flight on another.
    expect((await get(idleAgent, port, "/fast")).status).toBe(200)
    const slow = get(slowAgent, port, "/slow")
    await new Promise((resolve) => setTimeout(resolve, 100))

    drain.startDraining()
    expect(drain.draining()).toBe(true)
    // A request begun while draining is counted and answered as well.
    const during = await get(idleAgent, port, "/fast")
    expect(during.status).toBe(200)

    const closingFrom = Date.now()
    const closed = drain.close(5_000, 150).then(() => Date.now())
    const answer = await slow
    expect(answer.status).toBe(200)
    expect(answer.connection).toBe("close")
    const closedAt = await closed
    // Not before the slow answer went out, nor before the idle connection's idleMs had passed.
    expect(closedAt).toBeGreaterThanOrEqual(answer.at)
    expect(closedAt - closingFrom).toBeGreaterThanOrEqual(140)
    expect(closedAt - closingFrom).toBeLessThan(2_000)
    slowAgent.destroy()
    idleAgent.destroy()
  })

  it("cuts a connection whose request outlives the grace period", async () => {
    const { drain, port } = await startServer()
    const agent = new Http.Agent({ keepAlive: true })
    const slow = get(agent, port, "/slow").then(
      () => "answered",
      () => "cut"
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    await drain.close(100, 50)
    expect(Date.now() - started).toBeLessThan(350)
    expect(await slow).toBe("cut")
    agent.destroy()
  })

  it("answers a request whose connection was still in the kernel's queue when closing began", async () => {
    const { drain, port } = await startServer()
    // The client is a thread of its own, so that it connects and sends while this one is blocked.
    const sent = new Int32Array(new SharedArrayBuffer(4))
    const client = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads")
       const socket = require("node:net").connect(workerData.port, "127.0.0.1")
       let received = ""
       socket.on("connect", () =>
         socket.write("GET /fast HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", () => {
           Atomics.store(workerData.sent, 0, 1)
           Atomics.notify(workerData.sent, 0)
         }))
       socket.on("data", (chunk) => { received += chunk })
       socket.on("close", () => parentPort.postMessage(received.split("\\r\\n")[0]))
       socket.on("error", (error) => parentPort.postMessage(error.code))`,
      { eval: true, workerData: { port, sent } }
    )
    const answer = new Promise((resolve) => client.once("message", resolve))
    // Closing begins from a timer, as the drain delay's end does, with the connection accepted by the
    // kernel but not yet by node: this thread waits until the request has been sent on it.
    const closed = new Promise<void>((resolve) =>
      setTimeout(() => void drain.close(5_000, 50).then(resolve), 0)
    )
    expect(Atomics.wait(sent, 0, 0, 10_000)).toBe("ok")
    expect(await answer).toBe("HTTP/1.1 200 OK")
    await closed
    await client.terminate()
  })
})

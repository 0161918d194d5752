// The drain on a plain node server: a request begun before draining (when nothing is counted per
// request) is still awaited and answered, told to close its connection; a connection idle when
// draining begins is closed once idle for `idleMs`; requests begun while draining are counted too;
// a connection the kernel completed before the listener closed is accepted and answered, not reset,
// also when it arrived while the event loop was busy answering after closing began.
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

/** Paths whose handler runs the given function synchronously before answering. */
const blocks = new Map<string, () => void>()

/**
 * A client on a thread of its own, so that it connects and sends while this one is blocked. `script`
 * runs with `connectAndSend(path, flag, onAnswer)`: a new connection sends `GET path`, sets
 * `flags[flag]` once the request is written, and calls `onAnswer` with the status line or the error's
 * code. The thread's first message is the answer.
 */
const clientThread = (port: number, flags: Int32Array, script: string) => {
  const client = new Worker(`${connectAndSend}\n${script}`, { eval: true, workerData: { port, flags } })
  const answer = new Promise<unknown>((resolve) => client.once("message", resolve))
  return { client, answer }
}

const connectAndSend = `
  const { workerData, parentPort } = require("node:worker_threads")
  const connectAndSend = (path, flag, onAnswer) => {
    const socket = require("node:net").connect(workerData.port, "127.0.0.1")
    let received = ""
    socket.on("connect", () =>
      socket.write("GET " + path + " HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", () => {
        Atomics.store(workerData.flags, flag, 1)
        Atomics.notify(workerData.flags, flag)
      }))
    socket.on("data", (chunk) => { received += chunk })
    socket.on("close", () => onAnswer(received.split("\\r\\n")[0]))
    socket.on("error", (error) => onAnswer(error.code))
  }`

const startServer = async () => {
  const server = Http.createServer()
  const drain = makeConnectionDrain(server)
  server.on("request", (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    drain.track(request, response)
    const delay = request.url === "/slow" ? 400 : 0
    const block = blocks.get(request.url ?? "")
    if (block !== undefined) {
      // Holds this thread, as a long request does, until `block` returns.
      block()
      response.end("done")
    } else setTimeout(() => response.end("done"), delay)
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
    const sent = new Int32Array(new SharedArrayBuffer(4))
    const { client, answer } = clientThread(
      port,
      sent,
      "connectAndSend('/fast', 0, (line) => parentPort.postMessage(line))"
    )
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

  it("answers a request whose connection the kernel completed while an answer held the thread, closing begun", async () => {
    const { drain, port } = await startServer()
    const flags = new Int32Array(new SharedArrayBuffer(8))
    // The first connection's request holds this thread: closing begins in its handler (in the event
    // loop's poll phase), and a second connection is completed by the kernel and sent on meanwhile.
    const { client, answer } = clientThread(
      port,
      flags,
      `const lines = []
       const report = (line) => { lines.push(line); if (lines.length === 2) parentPort.postMessage(lines) }
       connectAndSend("/hold", 0, report)
       parentPort.once("message", () => connectAndSend("/fast", 1, report))`
    )
    let closed: Promise<void> | undefined
    let secondSent: string | undefined
    blocks.set("/hold", () => {
      closed = drain.close(5_000, 50)
      client.postMessage("connect")
      secondSent = Atomics.wait(flags, 1, 0, 10_000)
    })
    expect(await answer).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
    expect(secondSent).toBe("ok")
    await closed
    await client.terminate()
  })
})

// Shutting the server down as a load balancer expects (issue 14, defect 6). Node's own
// `server.close()` destroys every connection without a request in progress at that instant, which
// includes connections whose request has arrived but has not been read yet: those clients saw resets.
// Here instead:
// 1. Draining starts (SIGTERM, or the layer closing): `/readyz` fails, and every response from now on
//    closes its connection once written (unless another request already waits on it), so clients
//    and balancers stop reusing connections to this instance. Requests are still served as usual.
// 2. After the drain delay (SIGTERM only; see NodeServer.ts) the listener closes: new connections are
//    refused, which a balancer retries elsewhere for any method, since nothing was sent.
// 3. Connections finish what they received: a connection is closed only when it has no request in
//    flight and has been quiet for a moment (so a request already on its way is read and answered).
//    Closing an idle keep-alive connection always races with a client sending on it; a balancer
//    that lets go of idle connections sooner than the drain delay leaves none to close (README).
// 4. Whatever is still open after the grace period (a client that stopped reading) is cut.
import type * as Http from "node:http"
import * as Net from "node:net"

/** How long a connection with nothing in flight must stay quiet before it is closed. */
const quietMs = 250
/** How often open connections are looked at while closing. */
const pollMs = 25

interface ConnectionState {
  inFlight: number
  lastActive: number
  /** The newest response on this connection not yet finished. */
  latest: Http.ServerResponse | undefined
}

export interface ConnectionDrain {
  /** Call for every request, first thing: counts it in flight on its connection until it finishes. */
  readonly track: (request: Http.IncomingMessage, response: Http.ServerResponse) => void
  readonly draining: () => boolean
  readonly startDraining: () => void
  /** Stops accepting, lets connections finish (at most `graceMs`), and resolves once all are closed. */
  readonly close: (graceMs: number) => Promise<void>
}

/** Marks a response not yet begun to close its connection when written. */
const closeAfter = (response: Http.ServerResponse | undefined) => {
  if (response !== undefined && !response.headersSent) response.setHeader("connection", "close")
}

export const makeConnectionDrain = (server: Http.Server): ConnectionDrain => {
  const connections = new Map<Net.Socket, ConnectionState>()
  let draining = false

  server.on("connection", (socket: Net.Socket) => {
    connections.set(socket, { inFlight: 0, lastActive: Date.now(), latest: undefined })
    socket.once("close", () => connections.delete(socket))
  })

  const track = (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    const state = connections.get(request.socket)
    if (state === undefined) return
    state.inFlight++
    if (draining) {
      // A request queued behind another keeps the connection open for itself.
      if (state.latest !== undefined && !state.latest.headersSent) state.latest.removeHeader("connection")
      closeAfter(response)
    }
    state.latest = response
    response.once("close", () => {
      state.inFlight--
      state.lastActive = Date.now()
      if (state.latest === response) state.latest = undefined
    })
  }

  const startDraining = () => {
    if (draining) return
    draining = true
    for (const state of connections.values()) closeAfter(state.latest)
  }

  const close = (graceMs: number) =>
    new Promise<void>((resolve) => {
      startDraining()
      const deadline = Date.now() + graceMs
      // The net server's own close: http's would destroy "idle" connections at once (see above).
      Net.Server.prototype.close.call(server)
      const sweep = () => {
        const now = Date.now()
        for (const [socket, state] of connections) {
          if (now >= deadline || (state.inFlight === 0 && now - state.lastActive >= quietMs)) {
            socket.destroy()
            connections.delete(socket)
          }
        }
        if (connections.size > 0) {
          setTimeout(sweep, pollMs)
          return
        }
        // Now http's close finds nothing to destroy; it stops node's timeout checks for this server.
        server.close()
        resolve()
      }
      sweep()
    })

  return { track, draining: () => draining, startDraining, close }
}

// Shutting the server down as a load balancer expects (issue 14, defect 6). Node's own
// `server.close()` destroys every connection without a request in progress at that instant, which
// includes connections whose request has arrived but has not been read yet: those clients saw resets.
// Here instead:
// 1. Draining starts (SIGTERM, or the layer closing): `/readyz` fails; requests are served as usual,
//    on connections kept alive as usual (a balancer that reuses its connections opens few new ones,
//    and a new connection waiting in the kernel's queue when the listener closes is reset).
// 2. After the drain delay (SIGTERM only; see NodeServer.ts) the listener closes: new connections are
//    refused, which a balancer retries elsewhere for any method, since nothing was sent. It closes
//    just after node has accepted what the kernel queued, at the end of a short turn of the event
//    loop: a queued connection is reset when the listener closes, after its client sent a request on
//    it. (One completed in the instant between is still reset: only a balancer that stops sending
//    first, by polling readiness, avoids that.)
// 3. Connections finish what they received. The next answer on each closes it (`Connection: close`,
//    unless another request already waits on it); a connection with nothing in flight is closed
//    once it has been idle for `idleMs`. Closing an idle keep-alive connection races with a client
//    sending on it (and nginx never resends a POST it sent), so under orchestration `idleMs` is the
//    drain delay, and a balancer that lets go of idle connections sooner (docs/operations.md) leaves none to
//    close: it has closed its own, or used them and been told to close them.
// 4. Whatever is still open after the grace period (a client that stopped reading) is cut.
import type * as Http from "node:http"
import * as Net from "node:net"

/** How often open connections are looked at while closing. */
const pollMs = 25

interface ConnectionState {
  /** Requests on this connection not yet answered; counted only once draining has begun. */
  inFlight: number
  lastActive: number
  /** The newest response on this connection (answered or not). */
  latest: Http.ServerResponse | undefined
}

export interface ConnectionDrain {
  /** Call for every request, first thing: counts it in flight on its connection until it finishes. */
  readonly track: (request: Http.IncomingMessage, response: Http.ServerResponse) => void
  readonly draining: () => boolean
  readonly startDraining: () => void
  /**
   * Stops accepting, lets connections finish (at most `graceMs`), closes those idle for `idleMs`,
   * and resolves once all are closed.
   */
  readonly close: (graceMs: number, idleMs: number) => Promise<void>
}

/** Marks a response not yet begun to close its connection when written. */
const closeAfter = (response: Http.ServerResponse | undefined) => {
  if (response !== undefined && !response.headersSent) response.setHeader("connection", "close")
}

/** A turn of the event loop this short left little time for connections to queue unaccepted. */
const quietTurnMs = 2
/** How long the listener waits for such a turn; a loop this busy throughout closes it regardless. */
const quietTurnWaitMs = 250

/**
 * Closes the listener at the end of a turn of the event loop that took at most `quietTurnMs`, then
 * calls `then`. Closing resets every connection the kernel completed since the turn's poll phase last
 * accepted, after its client has sent a request on it (which a balancer does not resend when it is a
 * POST). So it closes in the check phase, right after a poll phase, and only after one that was short:
 * a poll that went on to read and answer requests for 15 ms (measured under load) left 15 ms of new
 * connections queued. Closed from a timer, as the drain delay ends, it would reset all that arrived
 * since the last poll.
 */
const closeListenerAfterQuietTurn = (server: Http.Server, then: () => void) => {
  const giveUpAt = performance.now() + quietTurnWaitMs
  // A turn is timed from one check phase to the next; the one under way began at an unknown time.
  let turnBegan: number | undefined
  const attempt = () => {
    const now = performance.now()
    if ((turnBegan === undefined || now - turnBegan > quietTurnMs) && now < giveUpAt) {
      turnBegan = now
      setImmediate(attempt)
      return
    }
    // The net server's own close: http's would destroy "idle" connections at once (see above).
    Net.Server.prototype.close.call(server)
    then()
  }
  setImmediate(attempt)
}

export const makeConnectionDrain = (server: Http.Server): ConnectionDrain => {
  const connections = new Map<Net.Socket, ConnectionState>()
  let draining = false
  let closing = false

  server.on("connection", (socket: Net.Socket) => {
    connections.set(socket, { inFlight: 0, lastActive: Date.now(), latest: undefined })
    socket.once("close", () => connections.delete(socket))
  })

  /** Counts a response in flight on its connection until it closes. */
  const count = (state: ConnectionState, response: Http.ServerResponse) => {
    state.inFlight++
    response.once("close", () => {
      state.inFlight--
      state.lastActive = Date.now()
      if (state.latest === response) state.latest = undefined
    })
  }

  // Until draining begins nothing needs the counts, and a listener per response costs the hot path
  // several percent (bench/HISTORY.md): a request then only records itself as its connection's newest.
  // Responses on a connection finish in order, so when draining begins the newest one tells whether
  // the connection has anything in flight, and counting starts from there. The price: an idle
  // connection holds on to its last response (and its request, a few KB) until its next request or
  // its close, which for the hundreds of connections a balancer keeps open is a few MB at most.
  const track = (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    const state = connections.get(request.socket)
    if (state === undefined) return
    if (draining) {
      if (closing) {
        // A request queued behind another keeps the connection open for itself.
        if (state.latest !== undefined && !state.latest.headersSent) state.latest.removeHeader("connection")
        closeAfter(response)
      }
      count(state, response)
    }
    state.latest = response
  }

  const startDraining = () => {
    if (draining) return
    draining = true
    const now = Date.now()
    for (const state of connections.values()) {
      const latest = state.latest
      if (latest !== undefined && !latest.closed) count(state, latest)
      else {
        // When its last answer went out is not known; counting its idle time from now only delays
        // closing it (by at most `idleMs`), never closes it under a client about to reuse it.
        state.latest = undefined
        state.lastActive = now
      }
    }
  }

  const close = (graceMs: number, idleMs: number) =>
    new Promise<void>((resolve) => {
      startDraining()
      const deadline = Date.now() + graceMs
      const sweep = () => {
        const now = Date.now()
        for (const [socket, state] of connections) {
          if (now >= deadline || (state.inFlight === 0 && now - state.lastActive >= idleMs)) {
            socket.destroy()
            connections.delete(socket)
          }
        }
        if (connections.size === 0) {
          // Now http's close finds nothing to destroy; it stops node's timeout checks for this server.
          server.close()
          resolve()
          return
        }
        // Swept after the poll phase, so that requests already in the socket have been read.
        setTimeout(() => setImmediate(sweep), pollMs)
      }
      // Answers tell their connections to close only once the listener is closed: before, each
      // would send the balancer to open a new connection here, which may land in the instant
      // before the close and be reset (measured under load: twelve in the 236 ms one close waited
      // for its quiet turn).
      closeListenerAfterQuietTurn(server, () => {
        closing = true
        for (const state of connections.values()) closeAfter(state.latest)
        sweep()
      })
    })

  return { track, draining: () => draining, startDraining, close }
}

// The answers node would otherwise write itself with an empty body: bytes it cannot parse as an HTTP
// request (400), headers too large (431), a request not received within `headersTimeout` or
// `requestTimeout` (408), an `Expect` it cannot meet (417) and an HTTP/1.1 request without `Host`
// (400). Each is the error envelope, and the connection closes after the socket-level ones.
import * as Http from "node:http"
import type { Duplex } from "node:stream"
import {
  type ApiError,
  BadRequest,
  ExpectationFailed,
  HeaderFieldsTooLarge,
  RequestTimeout
} from "./ApiError.js"
import { errorAnswer, writeError } from "./ErrorAnswer.js"

const errorFor = (code: string | undefined): ApiError => {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new RequestTimeout({
        message: "The request was not received in time; the connection is closed."
      })
    case "HPE_HEADER_OVERFLOW":
      return new HeaderFieldsTooLarge({ message: "The request headers are larger than this server accepts." })
    default:
      return new BadRequest({ message: `The request is not valid HTTP (${code ?? "parse error"}).` })
  }
}

/** The response node is writing on this socket, if any (node keeps it there while it is in flight). */
const responseOn = (socket: Duplex): Http.ServerResponse | undefined => {
  const current: unknown = Reflect.get(socket, "_httpMessage")
  return current instanceof Http.ServerResponse ? current : undefined
}

/** For the server's `clientError` event: the envelope, and the connection closed after it. */
export const answerClientError = (
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Duplex
): void => {
  // As node does: never write into a response already under way, nor to a client that is gone.
  if (!socket.writable || responseOn(socket)?.headersSent === true || error.code === "ECONNRESET") {
    socket.destroy()
    return
  }
  const answer = errorAnswer(errorFor(error.code))
  const head = [
    `HTTP/1.1 ${answer.status} ${Http.STATUS_CODES[answer.status] ?? ""}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    "connection: close"
  ].join("\r\n")
  // An answer to HEAD carries no body, even this one.
  const isHead = error.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD "
  socket.end(
    Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), isHead ? Buffer.alloc(0) : answer.body])
  )
}

/** For the server's `checkExpectation` event: an `Expect` other than `100-continue`. */
export const answerExpectationFailed = (
  request: Http.IncomingMessage,
  response: Http.ServerResponse
): void => {
  writeError(
    request,
    response,
    new ExpectationFailed({
      message: `Expect: ${request.headers.expect ?? ""} cannot be met; only 100-continue is understood.`
    }),
    { connection: "close" }
  )
  request.resume()
}

/** HTTP/1.1 requires `Host` (RFC 9112 §3.2); node's own check would answer with an empty body. */
export const lacksHost = (request: Http.IncomingMessage): boolean =>
  request.httpVersionMajor === 1 && request.httpVersionMinor >= 1 && request.headers.host === undefined

export const answerMissingHost = (request: Http.IncomingMessage, response: Http.ServerResponse): void => {
  writeError(request, response, new BadRequest({ message: "HTTP/1.1 requests must carry a Host header." }), {
    connection: "close"
  })
  request.resume()
}

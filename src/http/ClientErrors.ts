// The answer to bytes node cannot parse as an HTTP request (bad characters, broken framing): there
// is no request or response object, so the envelope is written straight onto the socket.
import * as Http from "node:http"
import type { Duplex } from "node:stream"
import { BadRequest } from "./ApiError.js"
import { errorAnswer } from "./ErrorAnswer.js"

/** For the server's `clientError` event: the 400 envelope, and the connection closed after it. */
export const answerClientError = (
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Duplex
): void => {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const answer = errorAnswer(
    new BadRequest({ message: `The request is not valid HTTP (${error.code ?? "parse error"}).` })
  )
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

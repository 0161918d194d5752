// What one curl invocation sent and got, read from its `--trace-ascii` file: the request line of
// each request and the status line of each final response (interim 1xx answers left out).

export interface CurlExchange {
  /** `GET /v1/episodes/12`. */
  readonly request: string
  readonly status: number | undefined
}

/** The dump lines after a trace's marker line, joined where curl wrapped them (64 bytes a line). */
const dataAfter = (lines: ReadonlyArray<string>, marker: number): string => {
  let text = ""
  for (let i = marker + 1; i < lines.length; i++) {
    const dump = /^[0-9a-f]{4}: (.*)$/.exec(lines[i] ?? "")
    if (dump === null) break
    text += dump[1]
    if ((dump[1] ?? "").length < 64) break
  }
  return text
}

/** The exchanges of a trace, in order: each request with the status of the answer that followed. */
export const exchangesOf = (trace: string): Array<CurlExchange> => {
  const exchanges: Array<{ request: string; status: number | undefined }> = []
  const lines = trace.split("\n")
  lines.forEach((line, index) => {
    if (line.startsWith("=> Send header")) {
      const requestLine = /^([A-Z]+) (\S+) HTTP\//.exec(dataAfter(lines, index))
      exchanges.push({
        request: requestLine ? `${requestLine[1]} ${requestLine[2]}` : "a request",
        status: undefined
      })
    } else if (line.startsWith("<= Recv header")) {
      const statusLine = /^HTTP\/[\d.]+ (\d{3})/.exec(dataAfter(lines, index))
      const current = exchanges[exchanges.length - 1]
      if (statusLine && current && Number(statusLine[1]) >= 200) current.status = Number(statusLine[1])
    }
  })
  return exchanges
}

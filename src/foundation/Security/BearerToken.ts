// Strict parsing of `Authorization: Bearer <token>`. The platform's built-in decoder only drops the
// first seven characters (it accepted `xxxxxx token`), so the foundation parses the header itself.
import * as Option from "effect/Option"

/** RFC 6750 token68 characters. */
const bearerPattern = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/

/** The token of a well-formed bearer header, or none for anything else (other schemes, extra spaces). */
export const parseBearer = (header: string): Option.Option<string> => {
  const match = bearerPattern.exec(header)
  return match?.[1] === undefined ? Option.none() : Option.some(match[1])
}

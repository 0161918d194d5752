// How deeply a JSON request body may nest arrays and objects, checked in one linear pass over its
// bytes before anything parses it: JSON.parse copes with thousands of levels, but the schema decoders
// and their error formatting recurse once per level and overflow the stack (a 6 KB body of 3,000
// brackets was a 500 with a stack trace in the log).

/** The deepest nesting of arrays and objects any JSON request body may have. */
export const maxJsonDepth = 64

const quote = 0x22
const backslash = 0x5c
const openBracket = 0x5b
const openBrace = 0x7b
const closeBracket = 0x5d
const closeBrace = 0x7d

/**
 * True when the JSON text in `bytes` opens more than `maxDepth` arrays and objects at once. Brackets
 * inside strings do not count. Malformed JSON is not judged here (the parser's 400 says what is
 * wrong); UTF-8 continuation bytes are never ASCII, so scanning bytes is exact.
 */
export const exceedsJsonDepth = (bytes: Uint8Array, maxDepth: number = maxJsonDepth): boolean => {
  let depth = 0
  let inString = false
  let escaped = false
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number
    if (inString) {
      if (escaped) escaped = false
      else if (byte === backslash) escaped = true
      else if (byte === quote) inString = false
    } else if (byte === quote) inString = true
    else if (byte === openBracket || byte === openBrace) {
      depth++
      if (depth > maxDepth) return true
    } else if (byte === closeBracket || byte === closeBrace) depth--
  }
  return false
}

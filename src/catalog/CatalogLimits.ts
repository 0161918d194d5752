// Every limit of the catalog, stated once: the REST parameters, the MCP tool and RPC arguments, the
// OpenAPI descriptions, the sandbox and the tool texts read them from here, and
// test/catalog/limits.test.ts checks that content/docs states the same numbers.

/** `limit` of a page, wherever it is taken (REST, MCP tools, RPC). */
export const pageSizeBounds = { minimum: 1, maximum: 50, default: 10 } as const

/** `session`, the season an episode belongs to. */
export const sessionBounds = { minimum: 1, maximum: 999_999_999 } as const

/** Characters of a cursor: a longer one is not one this service issued. */
export const maxCursorLength = 200

/** Characters of the words to search for (`q`, `query`). */
export const maxSearchTextLength = 500

/** Searches rank at most this many candidates; deeper pages of very broad queries end here. */
export const maxSearchResults = 1000

/** Characters of a snapshot file's path (`/snapshot/{path}`). */
export const maxSnapshotPathLength = 300

/** `max_characters` of the MCP tool `get_transcript`, in Unicode code points. */
export const maxCharactersBounds = { minimum: 1, maximum: 200_000, default: 20_000 } as const

/** Requests in one batch; more is 413. */
export const maxBatchRequests = 20

/** Bytes of a batch's body; more is 413. */
export const maxBatchBodyBytes = 64 * 1024

/** Characters of a batch item's `id` and of its `path`. */
export const batchItemBounds = { maxIdLength: 64, maxPathLength: 2048 } as const

/** Bytes of an MCP request body: a JSON-RPC message of a few hundred bytes, with ample room. */
export const maxMcpBodyBytes = 64 * 1024

/** Characters of an ask question. */
export const questionLengthBounds = { minimum: 1, maximum: 500 } as const

/** How many episodes and transcript hits an answer to ask returns. */
export const askLimitBounds = { minimum: 1, maximum: 20, default: 5 } as const

/** Pages a documentation search returns (the documentation is a handful of pages). */
export const maxDocHits = 20

/** Characters of a documentation page's file name. */
export const maxDocPathLength = 200

/** Requests a minute per client address unless `CATALOG_RATE_LIMIT` says otherwise. */
export const defaultRateLimitPerMinute = 300

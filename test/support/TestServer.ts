// Starts the real service (the same layer as `npm start`) on an ephemeral port, configured by a map
// instead of the process environment, and offers a small fetch helper bound to its address.
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { ServerLive } from "../../src/Server.js"

/**
 * What every test server runs with unless its settings say otherwise: scrypt at 2^10 instead of 2^15
 * (the suite signs thousands of accounts up; test/foundation/passwords.test.ts checks the default),
 * and an embedded database with a 16MB buffer cache instead of 128MB (clearing it was most of each
 * start's 0.9 s of CPU: 0.25 s with 16MB; the suite starts it hundreds of times).
 */
const testDefaults = {
  HOST: "127.0.0.1",
  PORT: "0",
  PASSWORD_HASH_COST: "10",
  EMBEDDED_SHARED_BUFFERS: "16MB"
}

/**
 * The service on 127.0.0.1 with a free port; `settings` are environment variables. `Layer.fresh`
 * gives each server its own layer memo map: @effect/vitest's `it.layer` otherwise lets two servers
 * of one test file share module-level layers (and so each other's configuration).
 */
export const testServer = (settings: Record<string, string>) =>
  Layer.fresh(ServerLive).pipe(
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(new Map(Object.entries({ ...testDefaults, ...settings })))
      )
    )
  )

export interface TestResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  readonly json: unknown
}

const parse = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Sends one request to the test server and reads the whole answer. */
export const request = (path: string, init?: RequestInit) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(async (): Promise<TestResponse> => {
      const response = await fetch(`${address.url}${path}`, { redirect: "manual", ...init })
      const text = await response.text()
      return { status: response.status, headers: response.headers, text, json: parse(text) }
    })
  )

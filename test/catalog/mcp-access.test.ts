// The Host and Origin rules of the MCP endpoints (catalog-extensions §7), for the deployments they
// distinguish: on loopback (the default, and local development) and public behind a name.
import { describe, expect, it } from "@effect/vitest"
import { makeMcpAccess } from "../../src/catalog/mcp/McpAccess.js"

const headers = (host: string, origin?: string) => ({ host, ...(origin === undefined ? {} : { origin }) })

describe("who may call the MCP endpoints", () => {
  it("on a loopback deployment: no Origin, its own PUBLIC_ORIGIN and any loopback origin; nothing else", () => {
    const access = makeMcpAccess({
      listenHost: "127.0.0.1",
      publicOrigin: "http://127.0.0.1:8080",
      allowedHosts: [],
      allowedOrigins: []
    })
    for (const origin of [
      undefined,
      "http://127.0.0.1:8080",
      "http://127.0.0.1:6274",
      "http://localhost:5173",
      "https://localhost",
      "http://[::1]:3000",
      "http://127.0.0.2:9"
    ]) {
      expect(access.refusal(headers("127.0.0.1:8080", origin)), origin).toBeUndefined()
    }
    for (const origin of [
      "https://evil.example",
      "null",
      "http://localhost.evil.example",
      "file://",
      "not a url"
    ]) {
      expect(access.refusal(headers("127.0.0.1:8080", origin))?.message, origin).toContain(
        "MCP_ALLOWED_ORIGINS"
      )
    }
    expect(access.corsHeaders("http://localhost:5173")["access-control-allow-origin"]).toBe(
      "http://localhost:5173"
    )
    expect(access.corsHeaders("https://evil.example")).toEqual({})
  })

  it("a public deployment whose PUBLIC_ORIGIN is a name: that origin and host, listed ones, and no loopback origins", () => {
    const access = makeMcpAccess({
      listenHost: "0.0.0.0",
      publicOrigin: "https://podcast.example",
      allowedHosts: ["mcp.example"],
      allowedOrigins: ["https://app.example"]
    })
    expect(access.refusal(headers("podcast.example", "https://podcast.example"))).toBeUndefined()
    expect(access.refusal(headers("podcast.example", "https://app.example"))).toBeUndefined()
    expect(access.refusal(headers("mcp.example"))).toBeUndefined()
    // A local page reaching a public server is a cross-site call like any other.
    expect(access.refusal(headers("podcast.example", "http://localhost:5173"))?.message).toContain(
      "MCP_ALLOWED_ORIGINS"
    )
    expect(access.refusal(headers("podcast.example", "http://podcast.example"))).toBeDefined()
    expect(access.refusal(headers("rebound.example", "https://podcast.example"))?.message).toContain(
      "MCP_ALLOWED_HOSTS"
    )
  })

  it("a deployment listening everywhere with a loopback PUBLIC_ORIGIN is a loopback deployment", () => {
    const access = makeMcpAccess({
      listenHost: "0.0.0.0",
      publicOrigin: "http://localhost:8080",
      allowedHosts: [],
      allowedOrigins: []
    })
    expect(access.refusal(headers("localhost:8080", "http://127.0.0.1:6274"))).toBeUndefined()
    expect(access.refusal(headers("localhost:8080", "https://evil.example"))).toBeDefined()
  })
})

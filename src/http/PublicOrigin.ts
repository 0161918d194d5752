// The one origin setting of the service: PUBLIC_ORIGIN, the scheme, host and port people and clients
// use to reach it. Every absolute link the service answers starts with it (the catalog's links, the
// OAuth issuer, mailed links), so it is read here once, for the server and for each feature.
import * as Config from "effect/Config"
import * as Option from "effect/Option"

/** Listening on port 8080 unless PORT says otherwise. */
export const defaultPort = 8080
export const defaultHost = "127.0.0.1"

/** `HOST` as it appears in a URL: IPv6 addresses go in brackets. */
const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host)

/** The origin a server listening on `host`:`port` has when PUBLIC_ORIGIN is not set. */
export const defaultOrigin = (host: string, port: number) => `http://${urlHost(host)}:${port}`

/** Whether `value` is an origin: scheme (http or https), host, optional port, nothing else. */
export const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value
  } catch {
    return false
  }
}

// Config.port refuses 0, which tests use to get a free port.
export const portConfig = Config.integer("PORT").pipe(
  Config.validate({ message: "PORT must be between 0 and 65535", validation: (n) => n >= 0 && n <= 65535 }),
  Config.withDefault(defaultPort)
)

export const hostConfig = Config.string("HOST").pipe(Config.withDefault(defaultHost))

const explicitOrigin = Config.option(
  Config.string("PUBLIC_ORIGIN").pipe(
    Config.validate({
      message:
        "PUBLIC_ORIGIN must be an origin such as https://example.com (scheme, host, optional port, no path)",
      validation: isOrigin
    })
  )
)

/**
 * PUBLIC_ORIGIN, validated, else `http://HOST:PORT`: read alike by the server and by each feature.
 * With PORT=0 (a port the system picks) or a wildcard HOST (0.0.0.0) the default names no
 * reachable address: set PUBLIC_ORIGIN then.
 */
export const originConfig: Config.Config<string> = Config.map(
  Config.all([hostConfig, portConfig, explicitOrigin]),
  ([host, port, origin]) => Option.getOrElse(origin, () => defaultOrigin(host, port))
)

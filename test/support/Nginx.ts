// nginx (Debian's package) as the load balancer in front of several instances of the service: run
// as a child in the foreground, with its configuration, pid file, logs and temporary files in a
// folder of its own, listening on a free loopback port. The configuration is the one docs/operations.md
// recommends (round robin, keep-alive to the instances, a refused connection retried on the next).
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as Net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { freePort } from "./ChildService.js"

/** The nginx binary, if one is installed. */
export const nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path))

/** Why tests behind nginx cannot run here, or undefined when they can. */
export const nginxMissing =
  nginxBinary === undefined ? "nginx is not installed (Debian: apt-get install nginx)" : undefined

/**
 * The `upstream` and `location` of the configuration docs/operations.md recommends. nginx must drop idle
 * connections to an instance sooner than the instance's drain delay (SHUTDOWN_DRAIN_DELAY_MS), so
 * that none is left idle when the instance closes it: closing an idle connection races with nginx
 * sending on it, and nginx does not retry a POST that was sent.
 */
export const proxyConfig = (upstreamPorts: ReadonlyArray<number>, idleKeepAlive = "4s") => `
  upstream service {
${upstreamPorts.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 32;
    keepalive_timeout ${idleKeepAlive};
  }
  server {
    listen 127.0.0.1:%PORT%;
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
      proxy_read_timeout 30s;
    }
  }`

export interface Nginx {
  readonly port: number
  readonly url: string
  readonly errorLog: () => string
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

/**
 * nginx balancing over `upstreamPorts`, stopped and cleaned up when the scope closes; it keeps idle
 * connections to them for `idleKeepAlive` at most.
 */
export const nginx = (upstreamPorts: ReadonlyArray<number>, idleKeepAlive?: string) =>
  nginxServing((port) => proxyConfig(upstreamPorts, idleKeepAlive).replace("%PORT%", String(port)))

/** nginx as a plain static file server of the folder `root` (its default MIME types, nothing else). */
export const staticNginx = (root: string) =>
  nginxServing(
    (port) => `
  include /etc/nginx/mime.types;
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }`
  )

/** nginx with the `http` block's servers that `servers` writes for its port, stopped when the scope closes. */
const nginxServing = (servers: (port: number) => string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (nginxBinary === undefined) throw new Error(nginxMissing)
      const dir = mkdtempSync(join(tmpdir(), "nginx-"))
      const port = await freePort()
      // As root, nginx's workers would run as `nobody` and could not write in this folder.
      const user = process.getuid?.() === 0 ? "user root;" : ""
      const config = `${user}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${servers(port)}
}
`
      const configPath = join(dir, "nginx.conf")
      writeFileSync(configPath, config)
      execFileSync(nginxBinary, ["-t", "-q", "-p", dir, "-c", configPath, "-e", join(dir, "error.log")])
      const child: ChildProcess = spawn(
        nginxBinary,
        ["-p", dir, "-c", configPath, "-e", join(dir, "error.log")],
        {
          stdio: "ignore"
        }
      )
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      const deadline = Date.now() + 10_000
      while (!(await listening(port))) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error("nginx did not start")
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const errorLog = () => {
        try {
          return readFileSync(join(dir, "error.log"), "utf8")
        } catch {
          return ""
        }
      }
      return {
        dir,
        child,
        exited,
        nginx: { port, url: `http://127.0.0.1:${port}`, errorLog } satisfies Nginx
      }
    }),
    ({ dir, child, exited }) =>
      Effect.promise(async () => {
        child.kill("SIGQUIT")
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
        if (child.exitCode === null) child.kill("SIGKILL")
        rmSync(dir, { recursive: true, force: true })
      })
  ).pipe(Effect.map(({ nginx }) => nginx))

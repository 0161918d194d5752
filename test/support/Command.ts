// Runs a program as a child process and collects what it printed, for tests that use the service as
// a reader or a consumer would (shell examples, npm, tsc, node). Asynchronous on purpose: the test
// server runs in the test's own process and must keep answering while the child waits on it.
import { execFile } from "node:child_process"
import * as Effect from "effect/Effect"

export interface CommandResult {
  /** The exit code; null when the process was ended by a signal (a timeout). */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface CommandOptions {
  readonly cwd: string
  readonly env?: NodeJS.ProcessEnv
  readonly timeoutMs?: number
}

/** Runs `file` with `args`; never fails: the exit code and output are the result. */
export const runCommand = (file: string, args: ReadonlyArray<string>, options: CommandOptions) =>
  Effect.async<CommandResult>((resume) => {
    const child = execFile(
      file,
      [...args],
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: "utf8"
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null
        resume(Effect.succeed({ code, stdout, stderr }))
      }
    )
    return Effect.sync(() => child.kill())
  })

/**
 * The environment for an npm of its own: without the `npm_*` variables of the `npm test` that
 * started the tests (they would make it act on this repository's workspace), keeping where the cache
 * and registry are.
 */
export const npmEnvironment = (): NodeJS.ProcessEnv => {
  const kept = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig"])
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_") || kept.has(key.toLowerCase())) env[key] = value
  }
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" }
}

// A throwaway certificate authority and a server certificate for 127.0.0.1 it signed, made with the
// openssl command line, for tests that serve https on loopback (a Client ID Metadata Document the
// service fetches, trusting the CA through OAUTH_EXTRA_CA_FILE). Where openssl is missing, the tests
// that need it skip, saying why.
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { tempDir } from "./TempDir.js"

export interface TestCertificates {
  /** The CA's certificate file (PEM), to trust. */
  readonly caFile: string
  /** The server's key and certificate (PEM), for `https.createServer`. */
  readonly key: string
  readonly cert: string
}

const openssl = (args: ReadonlyArray<string>, cwd: string) =>
  execFileSync("openssl", [...args], { cwd, stdio: "pipe" })

const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "pipe" })
    return true
  } catch {
    return false
  }
})()

export const certificatesUnavailable: string | undefined = hasOpenssl
  ? undefined
  : "no openssl command to make test certificates"

/** A new CA and a certificate for 127.0.0.1 signed by it (`label` names the CA). */
export const makeTestCertificates = (label: string): TestCertificates => {
  const dir = tempDir("certificates-")
  const curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
  openssl(
    [
      "req",
      "-x509",
      ...curve,
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      `/CN=${label}`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign"
    ],
    dir
  )
  openssl(["req", ...curve, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], dir)
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "server.pem",
      "-days",
      "2",
      "-extfile",
      "server.ext"
    ],
    dir
  )
  return {
    caFile: join(dir, "ca.pem"),
    key: readFileSync(join(dir, "server.key"), "utf8"),
    cert: readFileSync(join(dir, "server.pem"), "utf8")
  }
}

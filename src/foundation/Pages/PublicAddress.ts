// The pages' forms post with the Origin of the address the browser shows, and the service accepts
// only its own (PUBLIC_ORIGIN, extensions §3): a person who opened http://localhost:8080 while the
// service is http://127.0.0.1:8080 would fill a form only to be refused. So a page asked for at
// another loopback name of the same port (the same server, on the same machine) is sent to the
// public address first, before any form is shown. Any other host is left alone: behind a proxy the
// Host header may name the upstream, and sending the browser there could loop; the refusal of a
// foreign post names the address to use instead (`useThisAddress`).
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { type Html, html } from "../../http/pages/Html.js"

const isLoopback = (hostname: string) =>
  hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname)

const portOf = (url: URL) => url.port || (url.protocol === "https:" ? "443" : "80")

/** The same page at the public origin, when the request came by another loopback name; else undefined. */
export const publicAddressOf = (
  request: HttpServerRequest.HttpServerRequest,
  publicOrigin: string
): string | undefined => {
  const host = request.headers.host
  if (host === undefined) return undefined
  const target = new URL(publicOrigin)
  const asked = URL.parse(`${target.protocol}//${host}`)
  if (asked === null || asked.host === target.host) return undefined
  if (!isLoopback(asked.hostname) || !isLoopback(target.hostname) || portOf(asked) !== portOf(target)) {
    return undefined
  }
  const url = new URL(request.url, publicOrigin)
  return `${publicOrigin}${url.pathname}${url.search}`
}

/** Words for a refusal of a post from another address: where this service's pages are. */
export const useThisAddress = (publicOrigin: string, path: string): Html =>
  html`This service's address is <a href="${publicOrigin}${path}">${publicOrigin}</a>; open its pages there (forms sent from any other address, even another name of this computer, are refused).`

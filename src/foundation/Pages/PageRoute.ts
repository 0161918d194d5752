// One path of the pages for people: a handler per method (HEAD as GET), and a page, not JSON, that
// names the methods for anything else (405 with `Allow`). A GET that came by another loopback name
// of the service is sent to its public address before any form is shown (PublicAddress.ts).
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { html } from "../../http/pages/Html.js"
import { pageHeaders } from "../../http/pages/Page.js"
import { messagePage } from "./MessagePage.js"
import { publicAddressOf } from "./PublicAddress.js"

type Handler = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  HttpServerRequest.HttpServerRequest
>

export const pageRoute = (
  publicOrigin: string,
  handlers: Readonly<Partial<Record<"GET" | "POST", Handler>>>
): Handler =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const method = request.method === "HEAD" ? "GET" : request.method
    const handler = method === "GET" || method === "POST" ? handlers[method] : undefined
    if (handler !== undefined) {
      const there = method === "GET" ? publicAddressOf(request, publicOrigin) : undefined
      return there === undefined
        ? handler
        : Effect.succeed(
            HttpServerResponse.empty({
              status: 307,
              headers: { ...pageHeaders({ personal: true }), location: there }
            })
          )
    }
    const allow = Object.keys(handlers).flatMap((name) => (name === "GET" ? ["GET", "HEAD"] : [name]))
    return Effect.succeed(
      messagePage({
        status: 405,
        title: "Not here",
        body: html`<p>This address takes ${allow.join(", ")}.</p>`,
        headers: { allow: allow.join(", ") }
      })
    )
  })

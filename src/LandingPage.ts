// The service's front door, `GET /`: a short page for people (what this is, where to go next) and,
// for API clients, a JSON index of the surfaces, chosen by `Accept` as `/sandbox` does. It lists only
// the features this instance serves.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { html } from "./http/pages/Html.js"
import { pageResponse, prefersHtml } from "./http/pages/Page.js"

export interface LandingFeatures {
  readonly catalog: boolean
  readonly foundation: boolean
}

interface Surface {
  readonly path: string
  readonly title: string
  readonly description: string
}

const catalogSurfaces: ReadonlyArray<Surface> = [
  {
    path: "/docs",
    title: "Catalog API reference",
    description: "The podcast catalog's REST API, to read and try."
  },
  {
    path: "/openapi.json",
    title: "Catalog OpenAPI document",
    description: "The exact REST contract of the catalog."
  },
  {
    path: "/sandbox",
    title: "Sandbox",
    description: "Example calls for every route, the limits, conditional requests."
  },
  { path: "/v1/episodes", title: "Episodes", description: "Every episode, newest first; add ?q= to search." },
  {
    path: "/mcp",
    title: "MCP server",
    description: "Tools for agents: search and read episodes and transcripts."
  },
  {
    path: "/mcp/docs",
    title: "Documentation MCP server",
    description: "The service's documentation for agents."
  },
  { path: "/rpc", title: "Effect RPC", description: "The catalog for TypeScript services (POST, JSON)." },
  {
    path: "/ask",
    title: "Ask",
    description: "Questions in plain words, answered from the catalog with citations."
  },
  {
    path: "/v1/snapshot",
    title: "Static snapshot",
    description: "The manifest of the prebuilt catalog files."
  },
  { path: "/health", title: "Health", description: "Whether the service is up and which snapshot it serves." }
]

const foundationSurfaces: ReadonlyArray<Surface> = [
  {
    path: "/api/v1/docs",
    title: "Foundation API reference",
    description: "Accounts, organizations, members, invitations and API tokens."
  },
  {
    path: "/api/v1/openapi.json",
    title: "Foundation OpenAPI document",
    description: "The exact contract of the foundation API."
  },
  {
    path: "/.well-known/oauth-authorization-server",
    title: "OAuth 2.1 authorization server",
    description: "Metadata for apps and agents that act for a person in one organization (RFC 8414)."
  },
  {
    path: "/sign-up",
    title: "Create an account",
    description:
      "Your own account: create organizations, invite people, issue API tokens, connect apps and agents."
  },
  {
    path: "/organizations",
    title: "Your organizations",
    description:
      "The console: organizations, members, invitations, API tokens, connected apps and your account."
  },
  {
    path: "/sign-in",
    title: "Sign in",
    description: "Sign in to the console, to approve apps and to answer invitations."
  }
]

/** Served when both features are: the agent session joins the catalog and the foundation. */
const agentSurfaces: ReadonlyArray<Surface> = [
  {
    path: "/mcp/agent",
    title: "Agent MCP server",
    description:
      "For an agent acting for a person (OAuth): the catalog's tools and the organization's notebook."
  }
]

const surfaceList = (surfaces: ReadonlyArray<Surface>) =>
  html`<ul class="links">${surfaces.map(
    (surface) => html`<li><a href="${surface.path}">${surface.title}</a>: ${surface.description}</li>`
  )}</ul>`

const landingHtml = (features: LandingFeatures) =>
  pageResponse(
    {
      title: "Welcome",
      wide: true,
      body: html`<h1>Podcast platform</h1>
<p class="lead">A public podcast catalog with search, transcripts, an MCP server and an ask endpoint,
and a service for accounts and organizations.</p>
${features.catalog && html`<h2>The catalog</h2>${surfaceList(catalogSurfaces)}`}
${features.foundation && html`<h2>Accounts and organizations</h2>${surfaceList(foundationSurfaces)}`}
${features.catalog && features.foundation && html`<h2>Agents acting for people</h2>${surfaceList(agentSurfaces)}`}
${!features.catalog && !features.foundation && html`<p>This instance serves no API.</p>`}`
    },
    { personal: false, headers: { vary: "Accept" } }
  )

const landingJson = (features: LandingFeatures) => {
  const index = (surfaces: ReadonlyArray<Surface>) =>
    surfaces.map(({ path, title, description }) => ({ path, title, description }))
  return HttpServerResponse.unsafeJson(
    {
      service: "Podcast platform",
      catalog: features.catalog ? index(catalogSurfaces) : null,
      foundation: features.foundation ? { base: "/api/v1", surfaces: index(foundationSurfaces) } : null,
      agent: features.catalog && features.foundation ? index(agentSurfaces) : null
    },
    { headers: { "cache-control": "no-cache", vary: "Accept", "x-content-type-options": "nosniff" } }
  )
}

export const LandingPageRoutes = (features: LandingFeatures) =>
  HttpLayerRouter.add(
    "GET",
    "/",
    Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
      prefersHtml(request.headers.accept) ? landingHtml(features) : landingJson(features)
    )
  )

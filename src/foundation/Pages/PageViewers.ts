// Who is looking at a page: the live session of the request (its cookie) and the person's profile,
// which every page of a signed-in person uses for its frame: the header says who is signed in and
// links their pages and sign-out, and the page takes the profile's theme (extensions §9).
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { displayName, type Html, html } from "../../http/pages/Html.js"
import { type PageOptions, pageResponse } from "../../http/pages/Page.js"
import { Accounts } from "../Accounts/Accounts.js"
import { SIGN_OUT_PATH } from "../Accounts/SignOutPage.js"
import type { UserProfile } from "../Domain/User.js"
import { Authenticator } from "../Security/AuthenticationLive.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { ACCOUNT_PATH, ORGANIZATIONS_PATH } from "./ConsolePaths.js"

/** A signed-in person on a page: the session, its token (for form tokens) and the profile. */
export interface Viewer {
  readonly principal: SessionPrincipal
  readonly token: string
  readonly user: UserProfile
}

/** What the pages call the person: their preferred name when they gave one. */
export const calledName = (user: UserProfile): string => user.preferredName ?? user.name

/** The console's section a page belongs to, marked as the current one in the header. */
export type ConsoleSection = "account" | "organizations"

const link = (path: string, text: string, current: boolean) =>
  html`<li><a href="${path}"${current ? html` aria-current="page"` : ""}>${text}</a></li>`

/** The header's part for a signed-in person: who, their pages, and sign-out. */
export const viewerNav = (user: UserProfile, section?: ConsoleSection): Html =>
  html`<nav class="account" aria-label="Your account"><ul>
<li class="who">Signed in as <strong>${displayName(calledName(user))}</strong></li>
${link(ORGANIZATIONS_PATH, "Organizations", section === "organizations")}
${link(ACCOUNT_PATH, "Account", section === "account")}
${link(SIGN_OUT_PATH, "Sign out", false)}
</ul></nav>`

/** The frame of a page for `viewer` (theme and header), or the plain frame for nobody. */
export const viewerFrame = (
  viewer: Viewer | undefined,
  section?: ConsoleSection
): Pick<PageOptions, "theme" | "nav"> =>
  viewer === undefined ? {} : { theme: viewer.user.theme, nav: viewerNav(viewer.user, section) }

/** A personal page (never stored by a cache) in the viewer's frame. */
export const viewerPage = (
  viewer: Viewer | undefined,
  page: Omit<PageOptions, "theme" | "nav"> & { readonly section?: ConsoleSection },
  options: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> } = {}
): HttpServerResponse.HttpServerResponse => {
  const { section, ...rest } = page
  return pageResponse(
    { ...rest, ...viewerFrame(viewer, section) },
    { personal: true, status: options.status ?? 200, headers: options.headers ?? {} }
  )
}

export class PageViewers extends Effect.Service<PageViewers>()("PageViewers", {
  effect: Effect.gen(function* () {
    const authenticator = yield* Authenticator
    const accounts = yield* Accounts

    /** The request's signed-in person, if its cookie names a live session of an existing account. */
    const of = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const session = yield* authenticator.pageSession(request)
        if (Option.isNone(session)) return Option.none<Viewer>()
        const user = yield* accounts.profile(session.value.principal.userId).pipe(
          Effect.map(Option.some),
          // A live session whose account was deleted meanwhile: nobody is signed in.
          Effect.catchTag("Unauthenticated", () => Effect.succeed(Option.none<UserProfile>()))
        )
        return Option.map(user, (user): Viewer => ({ ...session.value, user }))
      })

    return { of }
  })
}) {}

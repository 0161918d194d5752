// `/organizations`: the page of the person's organizations (OrganizationsPage.ts) and its posts,
// `create` and `switch`, with the same schema and service calls as organizations.create and
// organizations.switch. A created organization leads back to `return_to` (e.g. the consent page of
// an app's authorization) or to its own page.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { seeOther } from "../Accounts/SignInRoutes.js"
import { OrganizationId } from "../Domain/Ids.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { CreateOrganizationRequest } from "../Organizations/Api.js"
import { Organizations } from "../Organizations/Organizations.js"
import { carriedReturnTo, ORGANIZATIONS_PATH, organizationPath } from "../Pages/ConsolePaths.js"
import { decodeFields } from "../Pages/FormInput.js"
import type { Viewer } from "../Pages/PageViewers.js"
import { safeReturnTo } from "../Pages/ReturnTo.js"
import { consoleFormToken, consoleRoute } from "./ConsoleRoute.js"
import { createOrganizationWords, organizationsDone, organizationsPage } from "./OrganizationsPage.js"

/** A name, a slug, an id, a token and a path. */
const MAX_FORM_BYTES = 8 * 1024

const decodeId = Schema.decodeUnknownOption(OrganizationId)

export const OrganizationsRoutes = consoleRoute(
  Effect.gen(function* () {
    const organizations = yield* Organizations
    const { publicOrigin } = yield* FoundationConfig
    const tokenOf = (viewer: Viewer) => consoleFormToken(viewer, ORGANIZATIONS_PATH)

    const returnToOf = (value: string | null | undefined) =>
      carriedReturnTo(value === null || value === undefined ? undefined : safeReturnTo(value, publicOrigin))

    const page = (
      viewer: Viewer,
      more: Omit<Parameters<typeof organizationsPage>[0], "viewer" | "organizations" | "formToken">
    ) =>
      Effect.map(organizations.listForUser(viewer.principal.userId), (listed) =>
        organizationsPage({ viewer, organizations: listed, formToken: tokenOf(viewer), ...more })
      )

    return {
      path: ORGANIZATIONS_PATH,
      maxFormBytes: MAX_FORM_BYTES,
      purpose: () => ORGANIZATIONS_PATH,
      show: (viewer, url) => {
        const done = url.searchParams.get("done")
        return page(viewer, {
          returnTo: returnToOf(url.searchParams.get("return_to")),
          done: done === "switched" || done === "left" ? organizationsDone[done] : undefined
        })
      },
      post: (viewer, fields) =>
        Effect.gen(function* () {
          const returnTo = returnToOf(fields.get("return_to"))
          switch (fields.get("action")) {
            case "create": {
              const typed = { name: fields.get("name") ?? "", slug: (fields.get("slug") ?? "").trim() }
              const input = decodeFields(
                CreateOrganizationRequest,
                { name: typed.name, ...(typed.slug === "" ? {} : { slug: typed.slug }) },
                createOrganizationWords
              )
              if (Either.isLeft(input)) return yield* page(viewer, { returnTo, typed, errors: input.left })
              const created = yield* organizations.create(viewer.principal, input.right).pipe(
                Effect.map(Either.right),
                Effect.catchTag("SlugTaken", () =>
                  Effect.succeed(
                    Either.left([
                      {
                        field: "field-slug",
                        text: "Another organization uses this short name: choose another, or leave it empty"
                      }
                    ])
                  )
                )
              )
              if (Either.isLeft(created)) {
                return yield* page(viewer, { returnTo, typed, errors: created.left, status: 409 })
              }
              return seeOther(returnTo ?? `${organizationPath(created.right.id)}?done=created`)
            }
            case "switch": {
              const id = decodeId(fields.get("organization"))
              const switched = Option.isNone(id)
                ? Effect.succeed(false)
                : organizations.switchTo(viewer.principal, id.value).pipe(
                    Effect.as(true),
                    Effect.catchTag("OrganizationNotFound", () => Effect.succeed(false))
                  )
              if (yield* switched) return seeOther(`${ORGANIZATIONS_PATH}?done=switched`)
              return yield* page(viewer, {
                returnTo,
                status: 404,
                problem: "You are not a member of that organization (any more), so nothing was switched."
              })
            }
            default:
              return yield* page(viewer, {
                returnTo,
                status: 400,
                problem: "Choose what to do on this page."
              })
          }
        })
    }
  })
)

// The addresses of the console, the pages where a person manages their account and organizations
// (extensions §9), named once for every page that links to them.
export const ACCOUNT_PATH = "/account"
export const ORGANIZATIONS_PATH = "/organizations"
export const SIGN_UP_PATH = "/sign-up"
/** Where sign-up sends a person: check the mail we sent. */
export const CHECK_EMAIL_PATH = "/sign-up/check-email"

/** Where a person goes after signing in or up when nothing asked to come back elsewhere. */
export const CONSOLE_HOME = ORGANIZATIONS_PATH

export const organizationPath = (organizationId: string) =>
  `${ORGANIZATIONS_PATH}/${encodeURIComponent(organizationId)}`

/** A `return_to` worth carrying on: not the console's home nor the root, where pages go anyway. */
export const carriedReturnTo = (returnTo: string | undefined): string | undefined =>
  returnTo === undefined || returnTo === CONSOLE_HOME || returnTo === "/" ? undefined : returnTo

/** `path` with `return_to`, unless there is none worth carrying (`carriedReturnTo`). */
export const withReturnTo = (path: string, returnTo: string | undefined): string => {
  const carried = carriedReturnTo(returnTo)
  return carried === undefined
    ? path
    : `${path}${path.includes("?") ? "&" : "?"}return_to=${encodeURIComponent(carried)}`
}

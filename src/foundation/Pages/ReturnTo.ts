// Where a page flow goes back to after signing in: only a path of this service (same origin), so the
// sign-in page cannot be used to send people to another site (an open redirect).

/** `value` as a path and query of `origin`, or `/` when it is missing or points anywhere else. */
export const safeReturnTo = (value: string | undefined, origin: string): string => {
  // A path, not a scheme-relative `//host` or a `/\host` that browsers read as one.
  if (value === undefined || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return "/"
  }
  const url = URL.parse(value, origin)
  return url === null || url.origin !== origin ? "/" : `${url.pathname}${url.search}`
}

/** The sign-in page that comes back to `returnTo` afterwards. */
export const signInPath = (returnTo: string): string => `/sign-in?return_to=${encodeURIComponent(returnTo)}`

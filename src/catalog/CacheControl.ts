// How long each kind of catalog answer may be reused (catalog-extensions §5).

/** Cache-Control of each kind of catalog answer. */
export const cacheControl = {
  detail: "public, max-age=300, stale-while-revalidate=86400",
  collection: "public, max-age=60",
  openapi: "public, max-age=3600",
  immutable: "public, max-age=31536000, immutable"
} as const

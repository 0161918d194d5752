// Vitest global setup (after OwnPostgres.ts): a migrated database on the tests' PostgreSQL, made once
// for the run, that each test database copies (`CREATE DATABASE … TEMPLATE`) instead of running every
// migration again: about a second per database, and the suite makes over a hundred. Its name goes to
// the tests in TEST_PG_MIGRATED_TEMPLATE. The migrations themselves are still run on PostgreSQL where
// it matters: here (the run fails if they fail), by several instances at once on an empty database
// (database.test.ts), and by the instances of test/scale, which start together on an empty one.
import { randomBytes } from "node:crypto"
import * as Pg from "pg"
import { migrate } from "./MigratedDatabase.js"

const onServer = async (url: string, statement: string) => {
  const client = new Pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.TEST_DATABASE_URL ?? ""
  if (url === "") return undefined
  const name = `foundation_template_${randomBytes(6).toString("hex")}`
  await onServer(url, `CREATE DATABASE ${name}`)
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${name}`
  await migrate({ DATABASE_URL: templateUrl.toString() })
  process.env.TEST_PG_MIGRATED_TEMPLATE = name
  return () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

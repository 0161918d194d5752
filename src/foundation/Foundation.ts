// The foundation as one layer for the server: its HttpApi mounted at /api/v1, the OAuth endpoints,
// the sign-in page and the pages of the mailed links at the origin's root, the services behind them,
// the outbox worker and housekeeping, and the database (migrated before the first request).
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { type ApiApp, layerApiApp, mountApiApp } from "../http/ApiApp.js"
import { Accounts } from "./Accounts/Accounts.js"
import { AccountsHttp } from "./Accounts/Http.js"
import { Sessions } from "./Accounts/Sessions.js"
import { SignInRoutes } from "./Accounts/SignInRoutes.js"
import { SignOutRoutes } from "./Accounts/SignOutRoutes.js"
import { SignUpRoutes } from "./Accounts/SignUpRoutes.js"
import { UserRepo } from "./Accounts/UserRepo.js"
import { AccountRoutes } from "./Console/AccountRoutes.js"
import { OrganizationRoutes } from "./Console/OrganizationRoutes.js"
import { OrganizationsRoutes } from "./Console/OrganizationsRoutes.js"
import { DatabaseReadiness, layerDatabase } from "./Database/Database.js"
import { Transactions } from "./Database/DatabaseEdge.js"
import { PageCursors } from "./Database/KeysetPage.js"
import { UntracedStatements } from "./Database/UntracedStatements.js"
import { FoundationApi } from "./FoundationApi.js"
import { FoundationConfig } from "./FoundationConfig.js"
import { Housekeeping } from "./Housekeeping.js"
import { InvitationsHttp } from "./Invitations/Http.js"
import { InvitationRepo } from "./Invitations/InvitationRepo.js"
import { Invitations } from "./Invitations/Invitations.js"
import { MembersHttp } from "./Members/Http.js"
import { MemberRepo } from "./Members/MemberRepo.js"
import { Members } from "./Members/Members.js"
import { NotesHttp } from "./Notes/Http.js"
import { NoteRepo } from "./Notes/NoteRepo.js"
import { Notes } from "./Notes/Notes.js"
import { NotesConfig } from "./Notes/NotesConfig.js"
import { AuthorizationRequests } from "./OAuth/AuthorizationRequests.js"
import { AuthorizationServer } from "./OAuth/AuthorizationServer.js"
import { ClientMetadataFetch } from "./OAuth/ClientMetadataFetch.js"
import { ClientRepo } from "./OAuth/ClientRepo.js"
import { Clients } from "./OAuth/Clients.js"
import { Connections } from "./OAuth/Connections.js"
import { FoundationResource } from "./OAuth/FoundationResource.js"
import { GrantRepo } from "./OAuth/GrantRepo.js"
import { ConnectionsHttp } from "./OAuth/Http.js"
import { OAuthRoutes } from "./OAuth/Routes.js"
import { TokenRepo } from "./OAuth/TokenRepo.js"
import { ContextHttp, OrganizationsHttp } from "./Organizations/Http.js"
import { OrganizationAccess } from "./Organizations/OrganizationAccess.js"
import { OrganizationRepo } from "./Organizations/OrganizationRepo.js"
import { Organizations } from "./Organizations/Organizations.js"
import { MailTransport } from "./Outbox/MailTransport.js"
import { Outbox, OutboxWorker } from "./Outbox/Outbox.js"
import { InvitationRoutes } from "./Pages/InvitationRoutes.js"
import { NewVerificationRoutes } from "./Pages/NewVerificationRoutes.js"
import { PageViewers } from "./Pages/PageViewers.js"
import { VerifyEmailRoutes } from "./Pages/VerifyEmailRoutes.js"
import { ReadFastPath } from "./ReadFastPath.js"
import { ReferenceHttp } from "./Reference/Http.js"
import { Authenticator, CredentialAuthLive, SessionAuthLive } from "./Security/AuthenticationLive.js"
import { Passwords } from "./Security/Passwords.js"
import { RateLimiter } from "./Security/RateLimiter.js"
import { ApiTokens } from "./Tokens/ApiTokens.js"
import { TokensHttp } from "./Tokens/Http.js"
import { OrganizationTokens } from "./Tokens/OrganizationTokens.js"

export class FoundationApp extends Context.Tag("FoundationApp")<FoundationApp, ApiApp>() {}

/**
 * Every service of the foundation, each built once and shared by handlers and the worker, in tiers:
 * the cursor signer, storage and primitives, then the authorization server's engine, then the
 * permission rules and authentication, then the rules of each area.
 */
export const FoundationServices = Layer.mergeAll(
  Organizations.Default,
  Members.Default,
  Invitations.Default,
  Connections.Default,
  Notes.Default,
  OrganizationTokens.Default,
  PageViewers.Default
).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      Accounts.Default,
      OrganizationAccess.Default,
      Authenticator.Default,
      AuthorizationRequests.Default
    )
  ),
  Layer.provideMerge(Layer.mergeAll(AuthorizationServer.Default, Clients.Default)),
  Layer.provideMerge(
    Layer.mergeAll(
      Transactions.Default,
      Sessions.Default,
      ApiTokens.Default,
      RateLimiter.Default,
      Outbox.Default,
      Passwords.Default,
      UserRepo.Default,
      OrganizationRepo.Default,
      MemberRepo.Default,
      InvitationRepo.Default,
      ClientRepo.Default,
      GrantRepo.Default,
      TokenRepo.Default,
      ClientMetadataFetch.Default,
      NoteRepo.Default,
      NotesConfig.layer,
      FoundationResource.layer
    )
  ),
  Layer.provideMerge(Layer.mergeAll(PageCursors.Default, UntracedStatements.layer))
)

const Handlers = Layer.mergeAll(
  AccountsHttp,
  OrganizationsHttp,
  ContextHttp,
  MembersHttp,
  InvitationsHttp,
  TokensHttp,
  ConnectionsHttp,
  NotesHttp,
  ReferenceHttp
).pipe(Layer.provideMerge(Layer.mergeAll(CredentialAuthLive, SessionAuthLive)))

/**
 * The foundation's services with what they stand on (database, mail, settings), for its routes and
 * for the features composed beside it in src/Server.ts (the agent session uses Authenticator and
 * Notes). Build it once per server: each call is a new database pool.
 */
export const layerFoundationServices = (publicOrigin: string) =>
  FoundationServices.pipe(
    Layer.provideMerge(MailTransport.layer),
    Layer.provideMerge(layerDatabase),
    Layer.provideMerge(FoundationConfig.layer(publicOrigin))
  )

/** The foundation's routes, on its services (`layerFoundationServices`). */
export const FoundationRoutes = Layer.mergeAll(
  mountApiApp(FoundationApp, "/api/v1/*").pipe(
    // Identifiers are up to 160 characters: longer path segments must reach the schemas (400), not
    // miss the router (whose default limit is 100); the request line is bounded by Node anyway.
    Layer.provide(layerApiApp(FoundationApp, FoundationApi, Handlers, { maxParamLength: 8192 }))
  ),
  // The hot authenticated reads, answered before the router with the same operations.
  ReadFastPath,
  // OAuth's endpoints and the sign-in page live at the origin's root (extensions §8).
  OAuthRoutes,
  SignInRoutes,
  SignOutRoutes,
  // The console: sign-up and the pages where a person manages their account and organizations (§9).
  SignUpRoutes,
  AccountRoutes,
  OrganizationsRoutes,
  OrganizationRoutes,
  // The pages behind the links the service mails (extensions §1, §4, §6).
  VerifyEmailRoutes,
  NewVerificationRoutes,
  InvitationRoutes,
  OutboxWorker,
  Housekeeping,
  DatabaseReadiness
)

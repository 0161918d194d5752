// The checks of the conformance suite's required server scenarios that cannot apply to our servers,
// each with why. The suite's server scenarios are written against its own test server: many call its
// fixture tools (`test_simple_text`, `json_schema_2020_12_tool`, `slow_compute`…), read its fixture
// resources (`test://static-text`) or exercise capabilities a server may leave out (prompts,
// completions, logging, subscriptions). A real service answers those as the specification says for
// what it does not have (-32601, "Tool X not found"), and the check reports a failure (or, for a
// SHOULD, a warning, which the suite's baseline counts alike). Everything else the suite checks must
// pass: the run gives these to `--expected-failures`, which fails on any other failure or warning,
// and also on an entry here that starts passing (so this list stays exact).

export type Revision = "2026-07-28" | "2025-11-25"
export type ServerPath = "/mcp" | "/mcp/docs"

interface NotApplicable {
  /** `scenario:check-id`, as the suite names them. */
  readonly checks: ReadonlyArray<string>
  readonly servers: ReadonlyArray<ServerPath>
  readonly revisions: ReadonlyArray<Revision>
  readonly why: string
}

const both: ReadonlyArray<ServerPath> = ["/mcp", "/mcp/docs"]
const allRevisions: ReadonlyArray<Revision> = ["2026-07-28", "2025-11-25"]

/** A scenario whose one check is named after it. */
const own = (scenario: string) => `${scenario}:${scenario}`

const notApplicable: ReadonlyArray<NotApplicable> = [
  {
    why: "calls the suite's fixture tools (test_simple_text, test_image_content, test_error_handling…)",
    checks: [
      "tools-call-simple-text",
      "tools-call-image",
      "tools-call-audio",
      "tools-call-embedded-resource",
      "tools-call-mixed-content",
      "tools-call-error",
      "tools-call-with-progress"
    ].map(own),
    servers: both,
    revisions: allRevisions
  },
  {
    why: "calls the suite's fixture tools that log, sample or elicit (2025 server-to-client requests)",
    checks: [
      own("tools-call-with-logging"),
      own("tools-call-sampling"),
      own("tools-call-elicitation"),
      "elicitation-sep1034-defaults:elicitation-sep1034-general",
      "elicitation-sep1330-enums:elicitation-sep1330-general"
    ],
    servers: both,
    revisions: ["2025-11-25"]
  },
  {
    why: "looks for the suite's fixture tool json_schema_2020_12_tool (our schemas are 2020-12; tools-list checks them)",
    checks: ["json-schema-2020-12:json-schema-2020-12-tool-found"],
    servers: both,
    revisions: allRevisions
  },
  {
    why: "needs the suite's diagnostic tools test_missing_capability, test_streaming_elicitation and test_logging_tool (the scenario's other 24 checks apply and pass)",
    checks: [
      "server-stateless:sep-2575-server-rejects-undeclared-capability",
      "server-stateless:sep-2575-missing-capability-http-400",
      "server-stateless:sep-2575-http-server-no-independent-requests-on-stream",
      "server-stateless:sep-2575-server-no-log-without-loglevel"
    ],
    servers: both,
    revisions: ["2026-07-28"]
  },
  {
    why: "calls the suite's fixture tools that return input_required results (our tools never ask the client for input)",
    checks: [
      "input-required-result-basic-elicitation:sep-2322-elicitation-incomplete",
      "input-required-result-basic-sampling:sep-2322-sampling-incomplete",
      "input-required-result-basic-list-roots:sep-2322-list-roots-incomplete",
      "input-required-result-request-state:sep-2322-request-state-incomplete",
      "input-required-result-multiple-input-requests:sep-2322-multiple-inputs-incomplete",
      "input-required-result-multi-round:sep-2322-multi-round-r1",
      "input-required-result-non-tool-request:sep-2322-non-tool-incomplete",
      "input-required-result-result-type:sep-2322-result-type-included",
      "input-required-result-tampered-state:sep-2322-reject-tampered-state",
      "input-required-result-capability-check:sep-2322-respect-client-capabilities",
      "input-required-result-ignore-extra-params:sep-2322-ignore-unexpected-params",
      "input-required-result-missing-input-response:sep-2322-missing-response-rerequests"
    ],
    servers: both,
    revisions: ["2026-07-28"]
  },
  {
    why: "needs tools whose inputSchema declares x-mcp-header parameters (ours declare none; the standard headers are checked by http-header-validation)",
    checks: [
      "http-custom-header-server-validation:sep-2243-server-no-xmcp-tool",
      "http-custom-header-server-validation:sep-2243-server-decode-base64",
      "http-custom-header-server-validation:sep-2243-server-validate-param-match",
      "http-custom-header-server-validation:sep-2243-server-reject-invalid-param-chars",
      "http-custom-header-server-validation:sep-2243-server-reject-param-mismatch"
    ],
    servers: both,
    revisions: ["2026-07-28"]
  },
  {
    why: "the Tasks extension (optional, not scored), exercised through the suite's fixture tools (slow_compute, greet, failing_job…)",
    checks: [
      "tasks-capability-negotiation:tasks-extension-advertised",
      "tasks-capability-negotiation:sep-2663-tasks-methods-non-declaring",
      "tasks-capability-negotiation:sep-2663-server-rejects-undeclared-client",
      "tasks-capability-negotiation:tasks-per-request-meta-opt-in",
      "tasks-dispatch-and-envelope:tasks-server-directed-creation-no-hint",
      "tasks-dispatch-and-envelope:sep-2663-legacy-task-param-ignored",
      "tasks-dispatch-and-envelope:tasks-immediate-result-shortcut",
      "tasks-dispatch-and-envelope:tasks-result-type-complete-on-non-task-responses",
      "tasks-dispatch-and-envelope:sep-2663-durable-create-strong-consistency",
      "tasks-dispatch-and-envelope:sep-2663-tasks-get-invalid-task-id-32602",
      "tasks-lifecycle:tasks-sync-tool-call",
      "tasks-lifecycle:sep-2663-result-type-task-on-create",
      "tasks-lifecycle:sep-2663-tasks-get-status-working",
      "tasks-lifecycle:sep-2663-tasks-get-status-completed",
      "tasks-lifecycle:sep-2663-tool-error-uses-completed-status",
      "tasks-lifecycle:sep-2663-tasks-get-status-failed",
      "tasks-lifecycle:sep-2663-cancel-ack-empty-result",
      "tasks-lifecycle:tasks-cancel-terminal-idempotent-ack",
      "tasks-mrtr-composition:sep-2663-mrtr-synchronous-before-task-creation",
      "tasks-mrtr-input:sep-2663-tasks-get-status-input-required",
      "tasks-mrtr-input:tasks-mrtr-tasks-update-resumes",
      "tasks-mrtr-input:tasks-mrtr-partial-fulfillment",
      "tasks-request-headers:tasks-headers-tolerate-mcp-method-on-tools-call",
      "tasks-request-headers:sep-2663-routing-headers-accepted-on-tasks-get",
      "tasks-request-headers:sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get",
      "tasks-request-state-removal:tasks-request-state-removal-setup",
      "tasks-required-task-error:sep-2663-server-returns-missing-capability-when-required",
      "tasks-wire-fields:tasks-wire-field-renames",
      "tasks-wire-fields:tasks-no-early-ttl-expiry",
      "tasks-wire-fields:tasks-no-related-task-meta-on-inlined-result"
    ],
    servers: both,
    revisions: ["2026-07-28"]
  },
  {
    why: "our servers offer no prompts and no completions (-32601 is the answer for a capability not declared)",
    checks: [
      own("prompts-list"),
      own("prompts-get-simple"),
      own("prompts-get-with-args"),
      own("prompts-get-embedded-resource"),
      own("prompts-get-with-image"),
      own("completion-complete")
    ],
    servers: both,
    revisions: allRevisions
  },
  {
    why: "caching hints of prompts/list, which neither server has (the hints of the lists they have are checked and pass)",
    checks: ["caching:sep-2549-prompts-list-caching-hints"],
    servers: both,
    revisions: ["2026-07-28"]
  },
  {
    why: "logging/setLevel: our servers declare no logging capability",
    checks: [own("logging-set-level")],
    servers: both,
    revisions: ["2025-11-25"]
  },
  {
    why: "reads the suite's fixture resources (test://static-text, test://static-binary, test://template/…)",
    checks: [own("resources-read-text"), own("resources-read-binary"), own("resources-templates-read")],
    servers: both,
    revisions: allRevisions
  },
  {
    why: "resource subscriptions: the documentation changes only with the snapshot, so none are offered",
    checks: [own("resources-subscribe"), own("resources-unsubscribe")],
    servers: both,
    revisions: ["2025-11-25"]
  },
  {
    why: "stateless servers issue no session id, which these SSE scenarios look for (they report a warning and test nothing else)",
    checks: [
      "server-sse-polling:server-sse-polling-session",
      "server-sse-multiple-streams:server-sse-multiple-streams-session"
    ],
    servers: both,
    revisions: ["2025-11-25"]
  },
  {
    why: "/mcp has no resources, so resources/read is a method it does not have (-32601); /mcp/docs answers -32602 with data.uri and passes",
    checks: [
      "sep-2164-resource-not-found:sep-2164-error-code",
      "sep-2164-resource-not-found:sep-2164-data-uri"
    ],
    servers: ["/mcp"],
    revisions: ["2026-07-28"]
  },
  {
    why: "/mcp has tools only: no resources to list (/mcp/docs lists its pages and passes)",
    checks: [own("resources-list")],
    servers: ["/mcp"],
    revisions: allRevisions
  },
  {
    why: "caching hints of the resource lists of /mcp, which has no resources (/mcp/docs has them and passes)",
    checks: [
      "caching:sep-2549-resources-list-caching-hints",
      "caching:sep-2549-resources-templates-list-caching-hints"
    ],
    servers: ["/mcp"],
    revisions: ["2026-07-28"]
  }
]

/** The checks that do not apply to `server` in `revision`, as `scenario:check-id`. */
export const notApplicableChecks = (server: ServerPath, revision: Revision): ReadonlyArray<string> =>
  notApplicable
    .filter((group) => group.servers.includes(server) && group.revisions.includes(revision))
    .flatMap((group) => group.checks)

/** The suite's `--expected-failures` file for `server` in `revision`. */
export const expectedFailuresYaml = (server: ServerPath, revision: Revision): string =>
  ["server:", ...notApplicableChecks(server, revision).map((check) => `  - ${check}`)].join("\n")

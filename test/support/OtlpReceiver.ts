// An OTLP/HTTP receiver on loopback, standing in for an OpenTelemetry collector: it accepts what the
// service exports to /v1/traces and /v1/metrics, in either encoding the specification allows
// (protobuf, `application/x-protobuf`, decoded here from the wire format by the field numbers of the
// OTLP .proto files; or JSON), and keeps it as plain objects for tests to look at. It also keeps the
// raw bodies, so a test can look for a secret in every byte that left the service.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"

export interface AttributeMap {
  readonly [key: string]: string | number | boolean | ReadonlyArray<unknown> | undefined
}

export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string
  readonly traceState: string
  readonly name: string
  /** 1 internal, 2 server, 3 client. */
  readonly kind: number
  readonly attributes: AttributeMap
  readonly events: ReadonlyArray<{ readonly name: string; readonly attributes: AttributeMap }>
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number
  readonly resource: AttributeMap
}

export interface ReceivedPoint {
  readonly attributes: AttributeMap
  /** A sum's or gauge's value; a histogram's count. */
  readonly value: number
  readonly sum?: number
}

export interface ReceivedMetric {
  readonly name: string
  readonly unit: string
  readonly kind: "sum" | "gauge" | "histogram"
  readonly points: ReadonlyArray<ReceivedPoint>
  readonly resource: AttributeMap
}

export interface OtlpReceiver {
  /** The base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string
  readonly spans: Array<ReceivedSpan>
  /** Every export of metrics, in arrival order (each holds every metric's current value). */
  readonly metricExports: Array<ReadonlyArray<ReceivedMetric>>
  /** Every body received, as text (protobuf bodies too: their strings appear as they were sent). */
  readonly bodies: Array<string>
  /** The content types received, per path. */
  readonly contentTypes: Array<string>
}

// --- protobuf wire format --------------------------------------------------------------------------

type Field = { readonly number: number; readonly wire: number; readonly value: bigint | Buffer }

const readVarint = (buffer: Buffer, start: number): [bigint, number] => {
  let result = 0n
  let shift = 0n
  let at = start
  for (;;) {
    const byte = buffer[at++]
    if (byte === undefined) throw new Error("truncated varint")
    result |= BigInt(byte & 0x7f) << shift
    if ((byte & 0x80) === 0) return [result, at]
    shift += 7n
  }
}

/** The fields of one message, in order (repeated fields appear once per value). */
const fieldsOf = (buffer: Buffer): Array<Field> => {
  const fields: Array<Field> = []
  let at = 0
  while (at < buffer.length) {
    const [key, next] = readVarint(buffer, at)
    at = next
    const number = Number(key >> 3n)
    const wire = Number(key & 7n)
    if (wire === 0) {
      const [value, after] = readVarint(buffer, at)
      fields.push({ number, wire, value })
      at = after
    } else if (wire === 1) {
      fields.push({ number, wire, value: buffer.subarray(at, at + 8) })
      at += 8
    } else if (wire === 2) {
      const [length, after] = readVarint(buffer, at)
      fields.push({ number, wire, value: buffer.subarray(after, after + Number(length)) })
      at = after + Number(length)
    } else if (wire === 5) {
      fields.push({ number, wire, value: buffer.subarray(at, at + 4) })
      at += 4
    } else throw new Error(`unexpected wire type ${wire}`)
  }
  return fields
}

const bytesOf = (fields: ReadonlyArray<Field>, number: number): Array<Buffer> =>
  fields
    .filter((field) => field.number === number && Buffer.isBuffer(field.value))
    .map((f) => f.value as Buffer)
const firstBytes = (fields: ReadonlyArray<Field>, number: number): Buffer | undefined =>
  bytesOf(fields, number)[0]
const text = (fields: ReadonlyArray<Field>, number: number): string =>
  firstBytes(fields, number)?.toString("utf8") ?? ""
const hex = (fields: ReadonlyArray<Field>, number: number): string =>
  firstBytes(fields, number)?.toString("hex") ?? ""
const varint = (fields: ReadonlyArray<Field>, number: number): bigint => {
  const field = fields.find((f) => f.number === number && typeof f.value === "bigint")
  return field === undefined ? 0n : (field.value as bigint)
}
const fixed64 = (fields: ReadonlyArray<Field>, number: number): Buffer | undefined =>
  fields.find((f) => f.number === number && f.wire === 1)?.value as Buffer | undefined

// AnyValue: string 1, bool 2, int 3, double 4, array 5 (values 1), kvlist 6.
const anyValue = (buffer: Buffer): string | number | boolean | ReadonlyArray<unknown> | undefined => {
  const fields = fieldsOf(buffer)
  const field = fields[0]
  if (field === undefined) return undefined
  switch (field.number) {
    case 1:
      return (field.value as Buffer).toString("utf8")
    case 2:
      return field.value === 1n
    case 3:
      return Number(BigInt.asIntN(64, field.value as bigint))
    case 4:
      return (field.value as Buffer).readDoubleLE(0)
    case 5:
      return bytesOf(fieldsOf(field.value as Buffer), 1).map(anyValue)
    default:
      return undefined
  }
}

// KeyValue: key 1, value 2.
const protobufAttributes = (buffers: ReadonlyArray<Buffer>): AttributeMap => {
  const attributes: Record<string, AttributeMap[string]> = {}
  for (const buffer of buffers) {
    const fields = fieldsOf(buffer)
    const value = firstBytes(fields, 2)
    attributes[text(fields, 1)] = value === undefined ? undefined : anyValue(value)
  }
  return attributes
}

// TracesData: resource_spans 1 { resource 1 { attributes 1 }, scope_spans 2 { spans 2 } }.
// Span: trace_id 1, span_id 2, trace_state 3, parent_span_id 4, name 5, kind 6, attributes 9,
// events 11 { name 2, attributes 3 }, status 15 { code 3 }.
const protobufSpans = (body: Buffer): Array<ReceivedSpan> =>
  bytesOf(fieldsOf(body), 1).flatMap((resourceSpans) => {
    const fields = fieldsOf(resourceSpans)
    const resourceBytes = firstBytes(fields, 1)
    const resource =
      resourceBytes === undefined ? {} : protobufAttributes(bytesOf(fieldsOf(resourceBytes), 1))
    return bytesOf(fields, 2).flatMap((scopeSpans) =>
      bytesOf(fieldsOf(scopeSpans), 2).map((spanBytes): ReceivedSpan => {
        const span = fieldsOf(spanBytes)
        const status = firstBytes(span, 15)
        return {
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          traceState: text(span, 3),
          parentSpanId: hex(span, 4),
          name: text(span, 5),
          kind: Number(varint(span, 6)),
          attributes: protobufAttributes(bytesOf(span, 9)),
          events: bytesOf(span, 11).map((event) => {
            const eventFields = fieldsOf(event)
            return { name: text(eventFields, 2), attributes: protobufAttributes(bytesOf(eventFields, 3)) }
          }),
          statusCode: status === undefined ? 0 : Number(varint(fieldsOf(status), 3)),
          resource
        }
      })
    )
  })

// MetricsData: resource_metrics 1 { resource 1, scope_metrics 2 { metrics 2 } }. Metric: name 1,
// unit 3, gauge 5 { data_points 1 }, sum 7 { data_points 1 }, histogram 9 { data_points 1 }.
// NumberDataPoint: as_double 4 (fixed64), as_int 6 (sfixed64), attributes 7.
// HistogramDataPoint: count 4 (fixed64), sum 5 (double), attributes 9.
const protobufMetrics = (body: Buffer): Array<ReceivedMetric> =>
  bytesOf(fieldsOf(body), 1).flatMap((resourceMetrics) => {
    const fields = fieldsOf(resourceMetrics)
    const resourceBytes = firstBytes(fields, 1)
    const resource =
      resourceBytes === undefined ? {} : protobufAttributes(bytesOf(fieldsOf(resourceBytes), 1))
    return bytesOf(fields, 2).flatMap((scopeMetrics) =>
      bytesOf(fieldsOf(scopeMetrics), 2).map((metricBytes): ReceivedMetric => {
        const metric = fieldsOf(metricBytes)
        const histogram = firstBytes(metric, 9)
        const kind =
          histogram !== undefined ? "histogram" : firstBytes(metric, 7) !== undefined ? "sum" : "gauge"
        const container = histogram ?? firstBytes(metric, 7) ?? firstBytes(metric, 5)
        const points = container === undefined ? [] : bytesOf(fieldsOf(container), 1)
        return {
          name: text(metric, 1),
          unit: text(metric, 3),
          kind,
          resource,
          points: points.map((pointBytes) => {
            const point = fieldsOf(pointBytes)
            if (kind === "histogram") {
              return {
                attributes: protobufAttributes(bytesOf(point, 9)),
                value: Number(fixed64(point, 4)?.readBigUInt64LE(0) ?? 0n),
                sum: fixed64(point, 5)?.readDoubleLE(0) ?? 0
              }
            }
            const double = fixed64(point, 4)
            const int = fixed64(point, 6)
            return {
              attributes: protobufAttributes(bytesOf(point, 7)),
              value: double !== undefined ? double.readDoubleLE(0) : Number(int?.readBigInt64LE(0) ?? 0n)
            }
          })
        }
      })
    )
  })

// --- JSON (the OTLP JSON mapping: ids as hex, 64-bit integers possibly as strings) ----------------

interface JsonKeyValue {
  readonly key: string
  readonly value: JsonAnyValue
}
interface JsonAnyValue {
  readonly stringValue?: string
  readonly boolValue?: boolean
  readonly intValue?: string | number
  readonly doubleValue?: number
  readonly arrayValue?: { readonly values?: ReadonlyArray<JsonAnyValue> }
}

const jsonValue = (value: JsonAnyValue): AttributeMap[string] =>
  value.stringValue ??
  value.boolValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.doubleValue ??
  value.arrayValue?.values?.map(jsonValue)

const jsonAttributes = (list: ReadonlyArray<JsonKeyValue> | undefined): AttributeMap =>
  Object.fromEntries((list ?? []).map((entry) => [entry.key, jsonValue(entry.value)]))

interface JsonSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly traceState?: string
  readonly name: string
  readonly kind: number
  readonly attributes?: ReadonlyArray<JsonKeyValue>
  readonly events?: ReadonlyArray<{
    readonly name: string
    readonly attributes?: ReadonlyArray<JsonKeyValue>
  }>
  readonly status?: { readonly code?: number }
}

const jsonSpans = (body: {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: ReadonlyArray<JsonKeyValue> }
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<JsonSpan> }>
  }>
}): Array<ReceivedSpan> =>
  (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes)
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        traceState: span.traceState ?? "",
        name: span.name,
        kind: span.kind,
        attributes: jsonAttributes(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: jsonAttributes(event.attributes)
        })),
        statusCode: span.status?.code ?? 0,
        resource
      }))
    )
  })

interface JsonPoint {
  readonly attributes?: ReadonlyArray<JsonKeyValue>
  readonly asDouble?: number
  readonly asInt?: string | number
  readonly count?: string | number
  readonly sum?: number
}
interface JsonMetric {
  readonly name: string
  readonly unit?: string
  readonly gauge?: { readonly dataPoints?: ReadonlyArray<JsonPoint> }
  readonly sum?: { readonly dataPoints?: ReadonlyArray<JsonPoint> }
  readonly histogram?: { readonly dataPoints?: ReadonlyArray<JsonPoint> }
}

const jsonMetrics = (body: {
  readonly resourceMetrics?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: ReadonlyArray<JsonKeyValue> }
    readonly scopeMetrics?: ReadonlyArray<{ readonly metrics?: ReadonlyArray<JsonMetric> }>
  }>
}): Array<ReceivedMetric> =>
  (body.resourceMetrics ?? []).flatMap((resourceMetrics) => {
    const resource = jsonAttributes(resourceMetrics.resource?.attributes)
    return (resourceMetrics.scopeMetrics ?? []).flatMap((scope) =>
      (scope.metrics ?? []).map((metric): ReceivedMetric => {
        const kind = metric.histogram !== undefined ? "histogram" : metric.sum !== undefined ? "sum" : "gauge"
        const points = (metric.histogram ?? metric.sum ?? metric.gauge)?.dataPoints ?? []
        return {
          name: metric.name,
          unit: metric.unit ?? "",
          kind,
          resource,
          points: points.map((point) =>
            kind === "histogram"
              ? {
                  attributes: jsonAttributes(point.attributes),
                  value: Number(point.count ?? 0),
                  sum: point.sum ?? 0
                }
              : {
                  attributes: jsonAttributes(point.attributes),
                  value: Number(point.asDouble ?? point.asInt ?? 0)
                }
          )
        }
      })
    )
  })

// --- the receiver ---------------------------------------------------------------------------------

/** The receiver on a free loopback port, closed with the scope. */
export const otlpReceiver = Effect.acquireRelease(
  Effect.async<{ readonly receiver: OtlpReceiver; readonly server: Http.Server }>((resume) => {
    const receiver: OtlpReceiver = {
      endpoint: "",
      spans: [],
      metricExports: [],
      bodies: [],
      contentTypes: []
    }
    const server = Http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const body = Buffer.concat(chunks)
        const type = request.headers["content-type"] ?? ""
        receiver.bodies.push(body.toString("utf8"))
        receiver.contentTypes.push(type)
        const json = type.startsWith("application/json")
        try {
          if (request.url === "/v1/traces") {
            receiver.spans.push(
              ...(json ? jsonSpans(JSON.parse(body.toString("utf8"))) : protobufSpans(body))
            )
          } else if (request.url === "/v1/metrics") {
            receiver.metricExports.push(
              json ? jsonMetrics(JSON.parse(body.toString("utf8"))) : protobufMetrics(body)
            )
          } else {
            response.writeHead(404).end()
            return
          }
        } catch (error) {
          response.writeHead(400, { "content-type": "text/plain" }).end(String(error))
          return
        }
        // An empty ExportServiceResponse in the request's encoding.
        if (json) response.writeHead(200, { "content-type": "application/json" }).end("{}")
        else response.writeHead(200, { "content-type": "application/x-protobuf" }).end()
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({ receiver: { ...receiver, endpoint: `http://127.0.0.1:${port}` }, server }))
    })
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
).pipe(Effect.map(({ receiver }) => receiver))

/** Waits (up to `timeoutMs`) until `found` finds something among what arrived; fails the test otherwise. */
export const eventually = <A>(found: () => A | undefined, timeoutMs = 10_000) =>
  Effect.promise(async () => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = found()
      if (value !== undefined) return value
      if (Date.now() > deadline) throw new Error("the receiver did not get what the test waited for")
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })

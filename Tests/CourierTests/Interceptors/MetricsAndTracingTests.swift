import Courier
import CourierCurl
import CourierTestServer
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Synchronization
import Testing
import Tracing

/// A test tracer that propagates in the W3C form: spans come from an `InMemoryTracer` whose
/// IDs are hex, and `inject` writes `traceparent: 00-<trace>-<span>-01`.
struct W3CTestTracer: Tracer {
    typealias Span = InMemorySpan
    let spans: InMemoryTracer

    init() {
        let counter = Counter()
        let next: @Sendable (Int) -> String = { width in
            counter.increment()
            let value = counter.value
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: width - hex.count) + hex
        }
        spans = InMemoryTracer(
            idGenerator: .init(nextTraceID: { "4bf92f3577b34da6" + next(16) }, nextSpanID: { next(16) }))
    }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind, at instant: @autoclosure () -> Instant,
        function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        spans.startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line
        )
    }

    func forceFlush() { spans.forceFlush() }

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    )
    where Carrier == Inject.Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    )
    where Carrier == Extract.Carrier {}
}

@Suite("Metrics and tracing interceptors")
struct MetricsAndTracingTests {
    @Test(arguments: ServerTransport.all)
    func countsRequestsFailuresAndDurations(transport: ServerTransport) async throws {
        let metrics = TestMetrics()
        try await withTestServer { server in
            let client = transport.client(interceptors: [
                MetricsInterceptor(dimensions: [("client", "test")], factory: metrics)
            ])
            _ = try await client.send(Request(url: server.url("/status/200")))
            _ = try await client.send(Request(url: server.url("/status/200")))
            _ = try await client.send(Request(url: server.url("/status/503")))
            // Port 1 on loopback: nothing listens there (a freed test server port may be taken again).
            let unreachable = URL(string: "http://127.0.0.1:1/")!
            await #expect(throws: CourierError.self) { try await client.send(Request(url: unreachable)) }

            let ok = try metrics.expectCounter(
                "courier_requests_total", [("client", "test"), ("method", "GET"), ("status", "200")])
            #expect(ok.totalValue == 2)
            let unavailable = try metrics.expectCounter(
                "courier_requests_total", [("client", "test"), ("method", "GET"), ("status", "503")])
            #expect(unavailable.totalValue == 1)
            let failed = try metrics.expectCounter(
                "courier_request_failures_total", [("client", "test"), ("method", "GET"), ("code", "cannotConnect")])
            #expect(failed.totalValue == 1)
            let timer = try metrics.expectTimer(
                "courier_request_duration_seconds", [("client", "test"), ("method", "GET")])
            #expect(timer.values.count == 4)
            #expect(timer.values.allSatisfy { $0 > 0 })
        }
    }

    @Test(arguments: ServerTransport.all)
    func eachMeasuredPhaseIsATimerAndASpanEvent(transport: ServerTransport) async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        try await withTestServer { server in
            let client = transport.client(interceptors: [
                MetricsInterceptor(factory: metrics), TracingInterceptor(tracer: tracer),
            ])
            let response = try await client.send(Request(url: server.url("/delay/50")))
            let measured = response.metrics.phases.filter { $0.duration != nil && $0.name != "receive" }.map(\.name)
            #expect(measured.contains("wait"))
            for phase in measured {
                let timer = try metrics.expectTimer(
                    "courier_request_phase_seconds", [("method", "GET"), ("phase", phase)])
                #expect(timer.values.count == 1)
            }
            if transport == .asyncHTTPClient {
                #expect(throws: (any Error).self) {
                    try metrics.expectTimer("courier_request_phase_seconds", [("method", "GET"), ("phase", "dns")])
                }
            }
            let span = try #require(tracer.finishedSpans.first)
            #expect(span.events.map(\.name) == measured.map { "courier.\($0)" })
            // The body was read by `send`, so its phase is recorded once it ended.
            let receive = try metrics.expectTimer(
                "courier_request_phase_seconds", [("method", "GET"), ("phase", "receive")])
            #expect(receive.values.count == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aStreamedBodysPhaseIsRecordedWhenItsReaderReachesTheEnd(transport: ServerTransport) async throws {
        let metrics = TestMetrics()
        try await withTestServer { server in
            let client = transport.client(interceptors: [MetricsInterceptor(factory: metrics)])
            let response = try await client.stream(Request(url: server.url("/drip?numbytes=4&duration_ms=200&chunk=1")))
            #expect(throws: (any Error).self) {
                try metrics.expectTimer("courier_request_phase_seconds", [("method", "GET"), ("phase", "receive")])
            }
            _ = try await response.bodyStream?.collect(upTo: 1024)
            let receive = try metrics.expectTimer(
                "courier_request_phase_seconds", [("method", "GET"), ("phase", "receive")])
            #expect(receive.values.count == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func insideRetryEveryAttemptIsCounted(transport: ServerTransport) async throws {
        let metrics = TestMetrics()
        try await withTestServer { server in
            let sleeps = SleepRecorder()
            let client = transport.client(interceptors: [
                RetryInterceptor(budget: .unlimited, sleep: sleeps.sleep),
                MetricsInterceptor(factory: metrics),
            ])
            _ = try await client.send(Request(url: server.url("/flaky/\(uniqueKey())/2")))
            #expect(
                try metrics.expectCounter("courier_requests_total", [("method", "GET"), ("status", "503")]).totalValue
                    == 2)
            #expect(
                try metrics.expectCounter("courier_requests_total", [("method", "GET"), ("status", "200")]).totalValue
                    == 1)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aClientSpanIsRecordedWithHTTPAttributesAndInjectedIntoTheRequest(transport: ServerTransport) async throws {
        let tracer = InMemoryTracer()
        try await withTestServer { server in
            let client = transport.client(interceptors: [TracingInterceptor(tracer: tracer)])
            _ = try await client.send(Request(url: server.url("/status/200?api=1")))
            let span = try #require(tracer.finishedSpans.first)
            #expect(tracer.finishedSpans.count == 1)
            #expect(span.operationName == "GET")
            #expect(span.kind == .client)
            #expect(span.attributes.get("http.request.method") == .string("GET"))
            #expect(span.attributes.get("url.full") == .string(server.url("/status/200?api=1").absoluteString))
            #expect(span.attributes.get("server.address") == .string("127.0.0.1"))
            #expect(span.attributes.get("server.port") == .int64(Int64(server.port)))
            #expect(span.attributes.get("http.response.status_code") == .int64(200))
            #expect(span.status == nil)
            let received = try #require(server.receivedRequests.first)
            #expect(received.header(InMemoryTracer.traceIDKey) == span.traceID)
            #expect(received.header(InMemoryTracer.spanIDKey) == span.spanID)
        }
    }

    @Test(arguments: ServerTransport.all)
    func aW3CTracerPutsTraceparentOnTheWire(transport: ServerTransport) async throws {
        let tracer = W3CTestTracer()
        try await withTestServer { server in
            let client = transport.client(interceptors: [TracingInterceptor(tracer: tracer)])
            _ = try await client.send(Request(url: server.url("/echo")))
            let span = try #require(tracer.spans.finishedSpans.first)
            let traceparent = try #require(server.receivedRequests.first?.header("traceparent"))
            #expect(traceparent == "00-\(span.traceID)-\(span.spanID)-01")
            #expect(traceparent.range(of: #"^00-[0-9a-f]{32}-[0-9a-f]{16}-01$"#, options: .regularExpression) != nil)
        }
    }

    @Test(arguments: ServerTransport.all)
    func theSpanIsAChildOfTheCallersContext(transport: ServerTransport) async throws {
        let tracer = InMemoryTracer()
        try await withTestServer { server in
            let client = transport.client(interceptors: [TracingInterceptor(tracer: tracer)])
            let parent = tracer.startSpan("checkout")
            try await ServiceContext.$current.withValue(parent.context) {
                _ = try await client.send(Request(url: server.url("/status/200")))
            }
            parent.end()
            let http = try #require(tracer.finishedSpans.first { $0.operationName == "GET" })
            #expect(http.parentSpanID == parent.spanID)
            #expect(http.traceID == parent.traceID)
        }
    }

    @Test(arguments: ServerTransport.all)
    func failuresMarkTheSpanAsAnError(transport: ServerTransport) async throws {
        let tracer = InMemoryTracer()
        try await withTestServer { server in
            let client = transport.client(interceptors: [TracingInterceptor(tracer: tracer), ValidationInterceptor()])
            await #expect(throws: CourierError.self) { try await client.send(Request(url: server.url("/status/500"))) }
            let span = try #require(tracer.finishedSpans.first)
            #expect(span.status?.code == .error)
            #expect(span.errors.count == 1)
            #expect(span.attributes.get("error.type") == .string("unacceptableStatus"))
        }
    }

    @Test(arguments: ServerTransport.all)
    func aSecretInTheURLIsNotRecorded(transport: ServerTransport) async throws {
        let tracer = InMemoryTracer()
        try await withTestServer { server in
            let client = transport.client(interceptors: [
                TracingInterceptor(tracer: tracer, redaction: Redaction(queryItems: ["key"]))
            ])
            _ = try await client.send(Request(url: server.url("/status/200?key=hidden-value")))
            let span = try #require(tracer.finishedSpans.first)
            #expect(
                span.attributes.get("url.full") == .string(server.url("/status/200?key=%3Credacted%3E").absoluteString))
        }
    }
}

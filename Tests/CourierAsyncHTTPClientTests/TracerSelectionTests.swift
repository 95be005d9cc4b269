import AsyncHTTPClient
import InMemoryTracing
import Testing
import Tracing

@testable import CourierAsyncHTTPClient

/// Which tracer the transport hands AsyncHTTPClient: a real one is kept, a `NoOpTracer` (what
/// `InstrumentationSystem` gives when nothing was bootstrapped) is dropped, since its spans cost
/// AsyncHTTPClient allocations on every request and record nothing.
@Suite("AsyncHTTPClientTransport tracer selection")
struct TracerSelectionTests {
    @Test func aNoOpTracerIsDropped() {
        #expect(AsyncHTTPClientTransport.Configuration.tracer(keeping: NoOpTracer()) == nil)
    }

    @Test func noTracerStaysNone() {
        #expect(AsyncHTTPClientTransport.Configuration.tracer(keeping: nil) == nil)
    }

    @Test func aBootstrappedTracerIsKept() throws {
        let tracer = InMemoryTracer()
        let kept = try #require(AsyncHTTPClientTransport.Configuration.tracer(keeping: tracer) as? InMemoryTracer)
        kept.startSpan("probe").end()
        #expect(tracer.finishedSpans.map(\.operationName) == ["probe"])
    }

    @Test func asyncHTTPClientsDefaultWithNothingBootstrappedIsDropped() {
        // No test in this process bootstraps InstrumentationSystem, so AsyncHTTPClient's default is the no-op tracer.
        let byDefault = HTTPClient.TracingConfiguration().tracer
        #expect(byDefault is NoOpTracer)
        #expect(AsyncHTTPClientTransport.Configuration.tracer(keeping: byDefault) == nil)
    }
}

import Benchmark
import Courier
import Foundation
import PipelineFixtures

/// Each sample runs 1,000 operations; without `--scale` the tables show one operation's share.
var perOperation: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count, .throughput: .count],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 10_000
    )
}

let benchmarks: @Sendable () -> Void = {
    guard let url = URL(string: "http://127.0.0.1/small.json") else { fatalError("the benchmark URL does not parse") }
    sendThroughChains(Request(url: url))
    buildLoginRequest()
}

/// `Client.send` through 0, 1, 4 and 16 no-op stages to an in-memory transport: the slope across
/// the chain lengths is the cost of one interceptor, the intercept at 0 the fixed cost of a send.
func sendThroughChains(_ request: Request) {
    for stages in [0, 1, 4, 16] {
        let client = Client(transport: InMemoryTransport(), interceptors: .noops(stages))
        Benchmark("Client.send, \(stages) no-op interceptors", configuration: perOperation) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(request))
            }
        }
    }
    let closures = Client(transport: InMemoryTransport(), interceptors: Array(repeating: ClosureInterceptor { request, _, next in
        try await next(request)
    }, count: 16))
    Benchmark("Client.send, 16 ClosureInterceptors", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await closures.send(request))
        }
    }
}

/// The README's login request from the builder, and the same fields set directly.
func buildLoginRequest() {
    Benchmark("Login request, builder DSL", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try LoginRequest.dsl())
        }
    } setup: {
        if let difference = try await LoginRequest.wireDifference(LoginRequest.dsl(), LoginRequest.direct()) {
            fatalError("the DSL and direct login requests differ, so comparing them means nothing:\n  \(difference)")
        }
    }
    Benchmark("Login request, builder DSL without the body block", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try LoginRequest.dslWithoutBody())
        }
    }
    Benchmark("Login request, builder DSL, BaseURL + Endpoint only", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try LoginRequest.dslURLOnly())
        }
    }
    Benchmark("Login request, direct init + JSONEncoder", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try LoginRequest.direct())
        }
    }
    Benchmark("Login request, direct init, body pre-encoded", configuration: perOperation) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try LoginRequest.direct(body: LoginRequest.encodedBody))
        }
    }
}

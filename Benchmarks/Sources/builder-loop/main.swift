import Courier
import Foundation
import PipelineFixtures

// Builds the documentation's login request in a loop, for a profiler: `perf record -g
// .build/release/builder-loop 200000 dsl`, then `perf report`. Prints ns per build of the DSL and
// of the direct initializer, so a change to the builder can be checked without package-benchmark.

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init) ?? 100_000
let only = arguments.dropFirst().first

func measure(_ name: String, _ build: () throws -> Request) rethrows {
    guard only == nil || only == name else { return }
    for _ in 0..<1000 { _ = try build() }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<count { _ = try build() }
    let elapsed = clock.now - start
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    print("\(name): \(Int(nanoseconds / Double(count))) ns per build")
}

try measure("dsl", LoginRequest.dsl)
try measure("dsl-without-body", LoginRequest.dslWithoutBody)
try measure("dsl-url-only", LoginRequest.dslURLOnly)
try measure("direct", LoginRequest.direct)
try measure("direct-preencoded") { try LoginRequest.direct(body: LoginRequest.encodedBody) }

// swift_neighbour: a Swift library on the toolchain's shared runtime, for test_two_runtimes,
// which loads it beside libcourier built with its runtime linked in. It uses what needs its
// runtime's own state: generic metadata, protocol conformances, classes with deinit, string
// hashing, and a task group on the concurrency runtime's pool.
import Synchronization

protocol Shape { var area: Double { get } }

struct Square: Shape {
    var side: Double
    var area: Double { side * side }
}

final class Counter {
    static let live = Atomic(0)
    init() { Self.live.add(1, ordering: .relaxed) }
    deinit { Self.live.subtract(1, ordering: .relaxed) }
}

/// Some work of the neighbour's own, `rounds` times; always positive.
@c public func swift_neighbour_work(_ rounds: Int32) -> Int64 {
    var total: Int64 = 0
    for round in 0..<Int(rounds) {
        var words: [String: Int] = [:]
        for index in 0..<200 { words["word-\(index % 37)-\(round)", default: 0] += index }
        let shapes: [any Shape] = (1...10).map { Square(side: Double($0)) }
        let counters = (0..<10).map { _ in Counter() }
        total += Int64(words.values.reduce(0, +)) + Int64(shapes.reduce(0) { $0 + $1.area }) + Int64(counters.count)
    }
    let done = Atomic(false)
    let sum = Atomic(0)
    Task.detached {
        let value = await withTaskGroup(of: Int.self) { group in
            for value in 1...10 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        sum.store(value, ordering: .relaxed)
        done.store(true, ordering: .releasing)
    }
    while !done.load(ordering: .acquiring) {}
    return total + Int64(sum.load(ordering: .relaxed))
}

/// The neighbour's `Counter`s still alive: 0 once its work is done.
@c public func swift_neighbour_live_counters() -> Int64 { Int64(Counter.live.load(ordering: .relaxed)) }

#if os(Linux)
import Glibc
import Testing

@testable import CourierCAPI

/// The descriptor a program's loop watches is readable exactly while completions wait, and one
/// batch of completions costs one write to it, not one per completion.
@Suite struct CompletionQueueTests {
    @Test func theDescriptorIsReadableWhileCompletionsWait() throws {
        let queue = try CompletionQueue()
        defer { queue.close() }
        #expect(!Self.isReadable(queue.fileDescriptor))
        #expect(queue.deliver {})
        #expect(Self.isReadable(queue.fileDescriptor))
        #expect(queue.runWaiting() == 1)
        #expect(!Self.isReadable(queue.fileDescriptor))
        #expect(queue.deliver {})
        #expect(Self.isReadable(queue.fileDescriptor))
    }

    @Test func aBatchOfCompletionsWritesTheDescriptorOnce() throws {
        let queue = try CompletionQueue()
        defer { queue.close() }
        for _ in 0..<5 { #expect(queue.deliver {}) }
        var counter: UInt64 = 0
        #expect(read(queue.fileDescriptor, &counter, 8) == 8)
        #expect(counter == 1)
        #expect(queue.runWaiting() == 5)
    }

    @Test func completionsRunInTheOrderTheirSendsEnded() throws {
        let queue = try CompletionQueue()
        defer { queue.close() }
        let order = Order()
        for index in 0..<4 { #expect(queue.deliver { order.append(index) }) }
        #expect(queue.runWaiting() == 4)
        #expect(order.values == [0, 1, 2, 3])
    }

    @Test func aClosedQueueRefusesCompletionsAndRunsThoseWaiting() throws {
        let queue = try CompletionQueue()
        let order = Order()
        #expect(queue.deliver { order.append(1) })
        queue.close()
        #expect(order.values == [1])
        #expect(!queue.deliver { order.append(2) })
        #expect(queue.runWaiting() == 0)
    }

    private static func isReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    private final class Order: @unchecked Sendable {
        var values: [Int] = []
        func append(_ value: Int) { values.append(value) }
    }
}
#endif

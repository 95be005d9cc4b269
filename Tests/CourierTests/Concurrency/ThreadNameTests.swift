import Foundation
import TestProcesses
import Testing

@testable import Courier

/// A thread that names itself right after it starts keeps the name. Foundation's own setter lost
/// it at random (it needs the pthread its creator records only after `start()` returns), which
/// once failed CI's pool-name test.
@Suite struct ThreadNameTests {
    @Test func everyFreshThreadThatNamesItselfKeepsTheName() async {
        let names = Set((0..<16).map { "courier-name-\($0)" })
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for name in names {
            Thread {
                ThreadName.setCurrent(name)
                parked.signal()
                release.wait()
            }.start()
        }
        for _ in names { parked.wait() }
        let present = ThreadNames.current()
        for _ in names { release.signal() }
        #expect(present.isSuperset(of: names))
    }

    @Test func aNameLongerThanLinuxKeepsIsCutTo15Bytes() async {
        let named = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            ThreadName.setCurrent("courier-a-name-too-long")
            named.signal()
            release.wait()
        }.start()
        named.wait()
        let present = ThreadNames.current()
        release.signal()
        #expect(present.contains("courier-a-name-"))
    }
}

import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// `ExchangeCallState` driven without C: fake handles stand for the registry's.
@Suite struct ExchangeCallStateTests {
    static var first: OpaquePointer { OpaquePointer(bitPattern: 0x10)! }
    static var renewed: OpaquePointer { OpaquePointer(bitPattern: 0x20)! }

    @Test func noHandleIsLiveUntilACallbackBegins() {
        var state = ExchangeCallState.idle(spare: nil)
        #expect(state.liveHandle == nil)
        #expect(state.begin { Self.first } == Self.first)
        #expect(state.liveHandle == Self.first)
    }

    @Test func theEndedCallbacksHandleIsRefusedAndItsRenewalServesTheNext() {
        var state = ExchangeCallState.idle(spare: nil)
        _ = state.begin { Self.first }
        state.end(renewedAs: Self.renewed)
        #expect(state == .idle(spare: Self.renewed))
        #expect(state.liveHandle == nil, "between callbacks no handle works, not even the spare")
        var registered = 0
        let next = state.begin {
            registered += 1
            return Self.first
        }
        #expect(next == Self.renewed)
        #expect(registered == 0, "the spare is reused rather than registered again")
    }

    @Test func withNoHandleLeftACallbackCannotBegin() {
        var state = ExchangeCallState.idle(spare: nil)
        #expect(state.begin { nil } == nil)
        #expect(state == .idle(spare: nil))
    }

    @Test func anEndedExchangeGivesUpItsHandleOnceAndNeverBeginsAgain() {
        var state = ExchangeCallState.idle(spare: nil)
        _ = state.begin { Self.first }
        state.end(renewedAs: Self.renewed)
        #expect(state.dispose() == Self.renewed)
        #expect(state.dispose() == nil)
        #expect(state.begin { Self.first } == nil)
        #expect(state.liveHandle == nil)
    }

    @Test func endingWithoutARunningCallbackChangesNothing() {
        var state = ExchangeCallState.idle(spare: Self.renewed)
        state.end(renewedAs: Self.first)
        #expect(state == .idle(spare: Self.renewed))
    }
}

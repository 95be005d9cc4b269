import Courier
import Foundation
import HTTPTypes
import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// `ExchangeHeld`: an exchange's request or response is a value or a box, never both, and edits
/// made through the box are what the exchange reads.
@Suite struct ExchangeHeldTests {
    static let first = Request(url: URL(string: "https://example.test/first")!)
    static let second = Request(url: URL(string: "https://example.test/second")!)

    @Test func aValueStaysAValueUntilACallbackAsksForItsBox() {
        var held = ExchangeHeld<RequestBox>.value(Self.first)
        #expect(held.box == nil)
        #expect(held.current.url == Self.first.url)
        #expect(held.replace(with: Self.second) == nil, "a value replaced returns no box")
        #expect(held.current.url == Self.second.url)
    }

    @Test func boxingMakesOneBoxWhoseEditsTheExchangeReads() {
        var held = ExchangeHeld<RequestBox>.value(Self.first)
        var made = 0
        let box = held.boxing {
            made += 1
            return RequestBox($0)
        }
        #expect(
            held.boxing {
                made += 1
                return RequestBox($0)
            } === box, "the box is made once")
        #expect(made == 1)
        box.edit { $0.request.url = Self.second.url }
        #expect(held.current.url == Self.second.url)
    }

    @Test func replacingABoxedValueHandsBackTheBoxAndHoldsTheNewValue() {
        var held = ExchangeHeld<ResponseBox>.value(Response(status: .ok, request: Self.first))
        let box = held.boxing(with: ResponseBox.init)
        box.edit { $0.status = HTTPResponse.Status.created }
        let replaced = held.replace(with: Response(status: .accepted, request: Self.first))
        #expect(replaced === box)
        #expect(held.box == nil)
        #expect(held.current.status == .accepted)
    }

    @Test func unboxingAnEndedExchangeKeepsTheEditedValue() {
        var held = ExchangeHeld<RequestBox>.value(Self.first)
        let box = held.boxing { RequestBox($0) }
        box.edit { $0.request.url = Self.second.url }
        #expect(held.unbox() === box)
        #expect(held.box == nil)
        #expect(held.current.url == Self.second.url)
        #expect(held.unbox() == nil, "a value has no box to give")
    }
}

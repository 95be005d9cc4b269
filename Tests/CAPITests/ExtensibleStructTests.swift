import CCourier
import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// The extensible-struct rule on a struct whose layout the test controls: ABI 1.0 had `first`,
/// this library also knows `second`. C programs check the real structs (test_lifecycle.c).
@Suite struct ExtensibleStructTests {
    struct Sample: Equatable {
        var structSize: Int
        var first: Int32
        var second: Int32
    }

    static let firstVersionSize = 12
    static let defaults = Sample(structSize: MemoryLayout<Sample>.size, first: 1, second: 2)

    /// Bytes as a caller would pass them: `size` bytes, the struct's own first, then `tail`.
    func callerBytes(_ sample: Sample, size: Int, tail: [UInt8] = []) -> [UInt8] {
        Array(withUnsafeBytes(of: sample) { Array($0) }.prefix(size)) + tail
    }

    func read(_ bytes: [UInt8]) throws -> Sample {
        try bytes.withUnsafeBytes { raw in
            // Read through a pointer to exactly the caller's bytes.
            let pointer = raw.baseAddress!.assumingMemoryBound(to: Sample.self)
            return try ExtensibleStruct.read(
                pointer, over: Self.defaults, firstVersionSize: Self.firstVersionSize,
                name: "sample", in: "test")
        }
    }

    @Test func anOlderCallersFieldsAreReadAndTheRestKeepTheirDefaults() throws {
        let older = callerBytes(Sample(structSize: 12, first: 7, second: 99), size: 12)
        #expect(try read(older) == Sample(structSize: 12, first: 7, second: 2))
    }

    @Test func aCallerOfThisVersionIsReadWhole() throws {
        let current = callerBytes(Sample(structSize: 16, first: 7, second: 8), size: 16)
        #expect(try read(current) == Sample(structSize: 16, first: 7, second: 8))
    }

    @Test func aNewerCallerWithAZeroTailIsAccepted() throws {
        let newer = callerBytes(
            Sample(structSize: 24, first: 7, second: 8), size: 16, tail: Array(repeating: 0, count: 8))
        #expect(try read(newer).second == 8)
    }

    @Test func aNewerCallerThatSetsAnUnknownFieldIsRefusedByName() throws {
        let newer = callerBytes(Sample(structSize: 24, first: 7, second: 8), size: 16, tail: [0, 0, 0, 0, 0, 1, 0, 0])
        let failure = #expect(throws: CAPIFailure.self) { try read(newer) }
        #expect(failure?.code == COURIER_E_INVALID_ARGUMENT)
        #expect(failure?.message.contains("sample sets a field this library does not know (byte 21 of 24)") == true)
    }

    @Test func aSizeBelowTheFirstVersionIsRefused() throws {
        let tooSmall = callerBytes(Sample(structSize: 8, first: 7, second: 8), size: 16)
        let failure = #expect(throws: CAPIFailure.self) { try read(tooSmall) }
        #expect(failure?.message.contains("sample.struct_size is 8, smaller than its first version (12 bytes)") == true)
    }

    @Test func theFirstVersionSizesAreThoseOfABI1_0() {
        // Appending a field changes the struct's size, never these: update the test, not them.
        #expect(
            MemoryLayout<courier_client_options>.offset(of: \.proxy) == ExtensibleStruct.FirstVersionSize.clientOptions,
            "ABI 1.1 appended its fields right after the 1.0 struct")
        #expect(
            MemoryLayout<courier_send_options>.offset(of: \.on_head) == ExtensibleStruct.FirstVersionSize.sendOptions)
        #expect(MemoryLayout<courier_interceptor>.size == ExtensibleStruct.FirstVersionSize.interceptor)
        #expect(MemoryLayout<courier_plugin_metadata>.size == ExtensibleStruct.FirstVersionSize.pluginMetadata)
    }
}

import Testing

@testable import Courier

/// The byte steps a head's lines are read with: a found byte, and a name compared in any case.
@Suite struct ASCIIBytesTests {
    private func bytes<T>(_ text: String, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        Array(text.utf8).withUnsafeBytes(body)
    }

    @Test func theFirstIndexOfAByteIsFoundOrNil() {
        #expect(bytes("Name: value") { ASCIIBytes.firstIndex(of: UInt8(ascii: ":"), in: $0) } == 4)
        #expect(bytes("no colon") { ASCIIBytes.firstIndex(of: UInt8(ascii: ":"), in: $0) } == nil)
        #expect(bytes("") { ASCIIBytes.firstIndex(of: UInt8(ascii: ":"), in: $0) } == nil)
    }

    @Test func aNameMatchesItsLowercaseSpellingInAnyCaseAndNothingElse() {
        let matches = { (text: String, lowercased: String) in
            self.bytes(text) { name in self.bytes(lowercased) { ASCIIBytes.equalIgnoringCase(name, lowercased: $0) } }
        }
        #expect(matches("Set-Cookie", "set-cookie"))
        #expect(matches("SET-COOKIE", "set-cookie"))
        #expect(!matches("Set-Cookies", "set-cookie"))
        #expect(!matches("Set_Cookie", "set-cookie"))
        #expect(!matches("\u{7F}", "_"))  // setting bit 5 alone would have taken DEL for `_`
        #expect(matches("x_y", "x_y"))
    }
}

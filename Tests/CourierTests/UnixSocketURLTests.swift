import Testing

@testable import Courier

@Suite("UnixSocketURL")
struct UnixSocketURLTests {
    @Test func unixSchemesAreRecognisedInAnyCase() {
        #expect(UnixSocketURL.isUnixSocketURL("http+unix://%2Frun%2Fapp.sock/path"))
        #expect(UnixSocketURL.isUnixSocketURL("https+unix://%2Frun%2Fapp.sock/"))
        #expect(UnixSocketURL.isUnixSocketURL("HTTP+Unix://%2Frun%2Fapp.sock"))
        #expect(UnixSocketURL.isUnixSocketURL("http+unix:x"))
    }

    @Test func otherSchemesAndShortTextAreNot() {
        for text in [
            "http://127.0.0.1:8080/", "https://example.com/", "http+unixx://a", "ftps+unix://a", "http+unix",
            "", "https", "http:/+unix://a",
        ] {
            #expect(!UnixSocketURL.isUnixSocketURL(text), "\(text)")
        }
    }
}

import Testing

@testable import CourierURLSession

/// How the `Set-Cookie` lines URLSession joins into one value are split again.
@Suite struct SetCookieLineTests {
    @Test func cookiesJoinedWithCommasComeApart() {
        #expect(URLSessionResponseHead.setCookieLines("a=1; Path=/, b=2") == ["a=1; Path=/", "b=2"])
    }

    @Test func theCommaOfAnExpiresDateStaysInItsCookie() {
        let joined = "id=7; Expires=Wed, 09 Jun 2027 10:18:14 GMT; Path=/, theme=dark; Max-Age=60"
        #expect(
            URLSessionResponseHead.setCookieLines(joined) == [
                "id=7; Expires=Wed, 09 Jun 2027 10:18:14 GMT; Path=/", "theme=dark; Max-Age=60",
            ])
    }

    @Test func aSingleCookieIsOneLine() {
        #expect(URLSessionResponseHead.setCookieLines("session=abc, def") == ["session=abc, def"])
    }
}

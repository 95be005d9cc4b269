import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// Digest authentication's pieces on their own: the hash functions against their standards'
/// vectors, RFC 7616's worked example, and the reading of `WWW-Authenticate`; the exchange with a
/// server is in the transport conformance suite, and curl checks the test server's route here.
@Suite("Digest authentication")
struct DigestAuthenticationTests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5MatchesRFC1321(text: String, hex: String) {
        #expect(DigestHashFunction.md5.hex(text) == hex)
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256MatchesFIPS180(text: String, hex: String) {
        #expect(DigestHashFunction.sha256.hex(text) == hex)
    }

    /// RFC 7616 §3.9.1: Mufasa's request for /dir/index.html, answered with MD5 and with SHA-256.
    @Test(arguments: [
        (DigestChallenge.Algorithm.md5, "8ca523f5e9506fed4657c9700eebdbec"),
        (.sha256, "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
    ])
    func theRFCsWorkedExampleGivesItsResponse(algorithm: DigestChallenge.Algorithm, response: String) {
        let challenge = DigestChallenge(
            realm: "http-auth@example.org", nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
            opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", algorithm: algorithm,
            offersAuthQOP: true, isStale: false, hashesUserName: false)
        let value = challenge.authorization(
            user: "Mufasa", password: "Circle of Life", method: "GET", uri: "/dir/index.html",
            nonceCount: 1, cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
        #expect(
            value == """
                Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=\(algorithm.rawValue), \
                nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, \
                cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="\(response)", \
                opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
                """)
    }

    @Test func theStrongestAnswerableChallengeIsChosenFromSeveral() throws {
        let challenges = DigestChallenge.parse([
            #"Basic realm="x", Digest realm="r", nonce="n1", qop="auth,auth-int", algorithm=MD5"#,
            #"Digest realm="r", nonce="n2", qop="auth", algorithm=SHA-256, stale=TRUE, opaque="o\"q""#,
            #"Digest realm="r", nonce="n3", qop="auth-int""#,
            #"Digest realm="r", nonce="n4", algorithm=SHA-512-256"#,
            #"Bearer error="invalid_token""#,
        ])
        #expect(challenges.map(\.nonce) == ["n2", "n1"])
        let first = try #require(challenges.first)
        #expect(first.algorithm == .sha256 && first.isStale && first.opaque == #"o"q"# && first.offersAuthQOP)
    }

    @Test func aChallengeWithoutQOPIsAnsweredTheRFC2069Way() {
        let challenge = DigestChallenge.parse([#"Digest realm="r", nonce="n""#])
        #expect(challenge.first?.offersAuthQOP == false)
        let value = challenge.first?.authorization(
            user: "u", password: "p", method: "GET", uri: "/", nonceCount: 1, cnonce: "c")
        let secret = DigestHashFunction.md5.hex("u:r:p"), target = DigestHashFunction.md5.hex("GET:/")
        #expect(
            value
                == #"Digest username="u", realm="r", uri="/", algorithm=MD5, nonce="n", response="\#(DigestHashFunction.md5.hex("\(secret):n:\(target)"))""#
        )
    }

    @Test func aHashedUserNameIsSentWhenTheServerAsksForIt() {
        let challenge = DigestChallenge.parse([
            #"Digest realm="r", nonce="n", qop="auth", algorithm=SHA-256, userhash=true"#
        ])
        let value =
            challenge.first?.authorization(
                user: "Jäsøn", password: "p", method: "GET", uri: "/", nonceCount: 2, cnonce: "c") ?? ""
        #expect(value.hasPrefix(#"Digest username="\#(DigestHashFunction.sha256.hex("Jäsøn:r"))""#))
        #expect(value.hasSuffix("userhash=true") && value.contains("nc=00000002"))
    }

    /// curl's own Digest client (an independent implementation) is accepted by the test server's
    /// route, and a wrong password is not, so the route can judge Courier's answers.
    @Test(arguments: ["MD5", "SHA-256"])
    func curlsDigestAnswerIsAcceptedByTheTestServer(algorithm: String) async throws {
        try await withTestServer { server in
            let url = server.baseURL.appendingPathComponent("digest-auth/auth/ada/s3cret/\(algorithm)").absoluteString
            let accepted = try await Shell.run("curl --silent --digest --user ada:s3cret " + ShellQuoting.quoted(url))
            #expect(
                String(decoding: accepted.standardOutput, as: UTF8.self).contains(#""authenticated":true"#),
                "\(accepted.standardError)")
            let refused = try await Shell.run(
                "curl --silent --output /dev/null --write-out '%{http_code}' --digest --user ada:wrong "
                    + ShellQuoting.quoted(url))
            #expect(String(decoding: refused.standardOutput, as: UTF8.self) == "401")
        }
    }
}

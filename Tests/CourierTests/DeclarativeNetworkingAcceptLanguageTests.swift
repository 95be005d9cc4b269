import CourierFoundation
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// `AcceptLanguage()` on Linux: the languages gettext would use for messages, read from an
/// environment given to it (the process environment is shared by tests running in parallel).
@Suite struct DeclarativeNetworkingAcceptLanguageTests {
    /// The `Accept-Language` value `AcceptLanguage()` gives in `environment`, or `nil` for none.
    func header(in environment: [String: String]) throws -> String? {
        let url = try #require(URL(string: "https://api.example.com"))
        let request = try Request(url: url).updating { AcceptLanguage(gettextEnvironment: environment) }
        #expect(request.headerFields[values: .acceptLanguage].count <= 1, "one line, however many languages")
        return request.headerFields[.acceptLanguage]
    }

    @Test(
        arguments: [
            (["LANGUAGE": "sv:de", "LANG": "en_US.UTF-8"], "sv, de;q=0.9"),
            (
                ["LANGUAGE": "sv:de_AT:en:fr:it:es:pt:nl:da:fi:nb:pl", "LANG": "en_GB.UTF-8"],
                "sv, de-AT;q=0.9, en;q=0.8, fr;q=0.7, it;q=0.6, es;q=0.5, pt;q=0.4, nl;q=0.3, da;q=0.2, fi;q=0.1, nb;q=0.1, pl;q=0.1"
            ),
            (["LANG": "de_DE.UTF-8"], "de-DE"),
            (["LANG": "C"], nil),
            (["LANG": "POSIX"], nil),
            (["LC_ALL": "C", "LANG": "en_US.UTF-8"], nil),
            (["LC_ALL": "C.UTF-8", "LANGUAGE": "sv:de", "LANG": "en_US.UTF-8"], nil),
            (["LC_ALL": "fr_CA.UTF-8@euro", "LC_MESSAGES": "pt_BR", "LANG": "en_US"], "fr-CA"),
            (["LC_MESSAGES": "pt_BR", "LANG": "en_US.UTF-8"], "pt-BR"),
            (["LC_ALL": "", "LC_MESSAGES": "", "LANG": "nb_NO.UTF-8"], "nb-NO"),
            (["LANGUAGE": "sv:de"], nil),
            ([:], nil),
        ] as [([String: String], String?)])
    func acceptLanguageWeighsTheGettextLanguagesInOrder(environment: [String: String], expected: String?) throws {
        #expect(try header(in: environment) == expected)
    }

    @Test(
        arguments: [
            (["LANG": "de_DE.UTF-8"], ["de-DE"]),
            (["LC_MESSAGES": "pt_BR", "LANG": "en_US.UTF-8"], ["pt-BR"]),
            (["LC_ALL": "fr_CA.UTF-8@euro", "LC_MESSAGES": "pt_BR", "LANG": "en_US"], ["fr-CA"]),
            (["LANGUAGE": "sv:de_AT:en:sv", "LANG": "en_GB.UTF-8"], ["sv", "de-AT", "en"]),
            (["LANGUAGE": "sv::C:de", "LANG": "en_GB.UTF-8"], ["sv", "de"]),
            (["LANGUAGE": "sv:de", "LANG": "C.UTF-8"], []),
            (["LANGUAGE": "sv:de"], []),
            (["LANG": "POSIX"], []),
            (["LC_ALL": "", "LANG": "nb_NO.UTF-8"], ["nb-NO"]),
            ([:], []),
        ] as [([String: String], [String])])
    func preferredLanguagesAreReadAsGettextReadsThem(environment: [String: String], languages: [String]) {
        #expect(PreferredLanguages.fromEnvironment { environment[$0] } == languages)
    }

    @Test func explicitLanguagesAreWeighedTheSameWay() throws {
        let url = try #require(URL(string: "https://api.example.com"))
        let request = try Request(url: url).updating { AcceptLanguage("de-DE", "fr", "en") }
        #expect(lines(request.headerFields) == ["Accept-Language: de-DE, fr;q=0.9, en;q=0.8"])
    }
}

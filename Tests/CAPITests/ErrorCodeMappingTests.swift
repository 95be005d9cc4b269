import CCourier
import Courier
import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// Every `CourierError.Code` reaches C as a `courier_code` of its own, and comes back from it.
@Suite struct ErrorCodeMappingTests {
    static let codes = CourierError.Code.Kind.allCases.map(CourierError.Code.init)

    @Test func everySwiftCodeHasItsOwnCCode() {
        let cCodes = Self.codes.map { CAPIFailure.code(for: $0).rawValue }
        #expect(Set(cCodes).count == Self.codes.count, "\(zip(Self.codes, cCodes).map { "\($0) → \($1)" })")
        #expect(!cCodes.contains(COURIER_OK.rawValue))
        // COURIER_E_INTERNAL, "any other failure", is the twin of `unknown` ("not Courier's") only.
        for code in Self.codes where code != .unknown {
            #expect(CAPIFailure.code(for: code) != COURIER_E_INTERNAL, "\(code) falls to COURIER_E_INTERNAL")
        }
        #expect(CAPIFailure.code(for: .unknown) == COURIER_E_INTERNAL)
    }

    @Test func everyCCodeHasAStrerrorText() {
        for code in Self.codes {
            let text = String(cString: courier_strerror(CAPIFailure.code(for: code)))
            #expect(text != "unknown error code", "\(code)")
        }
        #expect(String(cString: courier_strerror(COURIER_E_AUTHENTICATION)) == "authentication failed")
    }

    /// A C interceptor failing with a code's twin is seen in Swift as that code. `unknown` is the
    /// exception: a C interceptor failing with COURIER_E_INTERNAL is an `interceptorFailed`.
    @Test func theCCodeLeadsBackToTheSwiftCode() {
        for code in Self.codes where code != .unknown {
            #expect(CAPIFailure.courierCode(for: CAPIFailure.code(for: code)) == code, "\(code)")
        }
        #expect(CAPIFailure.courierCode(for: COURIER_E_INTERNAL) == .interceptorFailed)
    }

    /// The error an `AuthenticationInterceptor` throws, on its way to C.
    @Test func anAuthenticationFailureIsNotAnInternalError() {
        let failure = CAPIFailure(
            CourierError(.authenticationFailed, "refreshing the credential failed"),
            in: "courier_client_send")
        #expect(failure.code == COURIER_E_AUTHENTICATION)
        #expect(failure.message == "refreshing the credential failed")
    }
}

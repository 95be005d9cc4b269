/// What URLSession on Linux (FoundationNetworking, swift-corelibs-foundation, as shipped with the
/// Swift 6.3 toolchain) cannot do, and so the conformance cases it leaves out. Each reason says
/// where in FoundationNetworking it comes from, with the upstream issue where there is one and
/// the source otherwise. On Apple platforms some of these hold (`connectionProxyDictionary`,
/// task suspension, a trust challenge); the suite runs only on Linux here.
enum URLSessionLimitation {
    /// The swift-corelibs-foundation sources the reasons point to.
    static let source =
        "https://github.com/swiftlang/swift-corelibs-foundation/blob/main/Sources/"
        + "FoundationNetworking/URLSession"

    static let all: [Capability: String] = [
        .customTrust:
            "FoundationNetworking trusts only the system's CA bundle and never asks the delegate about server "
            + "trust, nor presents a client certificate (\(source)/libcurl/EasyHandle.swift, setCARootBundlePath)",
        .explicitProxy:
            "FoundationNetworking ignores connectionProxyDictionary; its libcurl reads the process's own proxy "
            + "variables only (https://github.com/swiftlang/swift-corelibs-foundation/issues/5199)",
        .connectionLimits:
            "URLSession has no bound on connections in all nor on idle time, only httpMaximumConnectionsPerHost "
            + "(URLSessionConfiguration)",
        .connectTimeout:
            "URLSession has no connect timeout of its own: the request's timeoutInterval is an idle timeout "
            + "(on Linux one timer over the whole transfer, \(source)/HTTP/HTTPURLProtocol.swift), so only "
            + "Courier's total deadline bounds a connect",
        .headerOrder:
            "URLRequest and HTTPURLResponse keep header fields in dictionaries: their order is lost and repeated "
            + "response fields are joined with \", \" (Set-Cookie is split again)",
        .noDefaultUserAgent:
            "URLSession adds its own User-Agent to a request that has none (FoundationNetworking: "
            + "\(source)/HTTP/HTTPURLProtocol.swift, curlHeadersToSet; Apple platforms: CFNetwork's)",
        .survivesHeadCutShort:
            "FoundationNetworking traps with \"Transfer completed, but there's no response\" when a server "
            + "closes the connection as the response starts or in the middle of its head (\(source)/NativeProtocol.swift, "
            + "transferCompleted): a crash a server can cause, so do not point URLSessionTransport on Linux at "
            + "servers you do not trust",
        .unixSocket:
            "URLSession has no setting for a Unix domain socket on any platform; URLSessionTransport refuses a "
            + "request that names one (its own test checks the refusal)",
    ]
}

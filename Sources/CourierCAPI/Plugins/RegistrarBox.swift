/// What a `courier_registrar` handle names: the interceptors a plugin registers during init.
final class RegistrarBox: HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.registrar

    let pluginName: String
    let defaultTimeout: Duration?
    private let registered = Locked<[CInterceptor]>([])

    init(pluginName: String, defaultTimeout: Duration?) {
        self.pluginName = pluginName
        self.defaultTimeout = defaultTimeout
    }

    func add(_ interceptor: CInterceptor) { registered.withLock { $0.append(interceptor) } }

    var interceptors: [CInterceptor] { registered.withLock { $0 } }
}

public import CCourier

@c @implementation
public func courier_interceptor_init(_ interceptor: UnsafeMutablePointer<courier_interceptor>?) {
    guard let interceptor else { return }
    ExtensibleStruct.initialize(
        interceptor, with: courier_interceptor(),
        firstVersionSize: ExtensibleStruct.FirstVersionSize.interceptor)
}

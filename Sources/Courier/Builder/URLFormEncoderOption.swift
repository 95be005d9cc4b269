/// The `URLFormEncoder` a request's `Query(encodable)` blocks and `.urlEncoded` bodies use.
public enum URLFormEncoderOption: RequestOptionKey {
    public static var defaultValue: URLFormEncoder { URLFormEncoder() }
}

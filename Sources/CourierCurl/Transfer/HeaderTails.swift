import CCurl

/// The header lines every request ends with, built once per transport and shared: curl's own
/// `Accept: */*` and `Expect: 100-continue` suppressed unless the request sets them, and the
/// configured `User-Agent` unless the request has one.
///
/// A request's own lines are appended in front of one of these tails, so a request without
/// header fields costs no list at all, and one with fields costs only its own nodes. The tails
/// live as long as the I/O thread; `ActiveTransfer` unlinks its nodes before freeing them.
final class HeaderTails {
    /// The four tails for each combination of "request has Expect" and "request has Accept", with
    /// and without the User-Agent line; index with `tail(expect:accept:userAgent:)`. A constant:
    /// a variable cost an exclusivity check on every request.
    private let lists: [UnsafeMutablePointer<curl_slist>?]

    init?(userAgent: String?) {
        var lists: [UnsafeMutablePointer<curl_slist>?] = []
        for index in 0..<8 {
            let hasExpect = index & 1 != 0, hasAccept = index & 2 != 0, hasUserAgent = index & 4 != 0
            var lines: [String] = []
            if !hasExpect { lines.append("Expect:") }
            if !hasAccept { lines.append("Accept:") }
            if !hasUserAgent, let userAgent { lines.append("User-Agent: \(userAgent)") }
            var list: UnsafeMutablePointer<curl_slist>?
            for line in lines {
                guard let appended = curl_slist_append(list, line) else {
                    curl_slist_free_all(list)
                    lists.forEach { curl_slist_free_all($0) }
                    return nil
                }
                list = appended
            }
            lists.append(list)
        }
        self.lists = lists
    }

    deinit {
        lists.forEach { curl_slist_free_all($0) }
    }

    /// The lines of one tail, in order: what the wire gets after the request's own fields.
    func lines(requestHasExpect: Bool, requestHasAccept: Bool, requestHasUserAgent: Bool) -> [String] {
        var lines: [String] = []
        var node = tail(
            requestHasExpect: requestHasExpect, requestHasAccept: requestHasAccept,
            requestHasUserAgent: requestHasUserAgent)
        while let current = node {
            lines.append(String(cString: current.pointee.data))
            node = current.pointee.next
        }
        return lines
    }

    /// The shared tail for a request that has (or lacks) these fields of its own.
    func tail(
        requestHasExpect: Bool, requestHasAccept: Bool, requestHasUserAgent: Bool
    ) -> UnsafeMutablePointer<curl_slist>? {
        lists[(requestHasExpect ? 1 : 0) | (requestHasAccept ? 2 : 0) | (requestHasUserAgent ? 4 : 0)]
    }
}

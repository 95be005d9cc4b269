extension Client {
    /// A copy of this client that records what each interceptor does, and the recorder it writes to.
    ///
    /// Each interceptor is wrapped so the recorder sees the request it received and what it
    /// passed to `next`, the response `next` returned and what it returned, and the time spent
    /// in the stage and below it (`ContinuousClock`). The stage after the interceptors
    /// (redirects and the transport) is recorded as `transport`, with the transport's type name
    /// and the request's transport hints it did not apply (``TransportHint``);
    /// interceptors added for one
    /// request (`Intercept`, `send(_:interceptors:)`) run inside it and are timed as part of it.
    ///
    /// ```swift
    /// let (explaining, recorder) = client.explaining()
    /// _ = try await explaining.send(request)
    /// print(recorder.last?.text ?? "")
    /// ```
    public func explaining(redaction: Redaction = Redaction()) -> (client: Client, recorder: ExplainRecorder) {
        let recorder = ExplainRecorder(redaction: redaction)
        var client = self
        var stages: [any Interceptor] = []
        for (depth, interceptor) in interceptors.enumerated() {
            stages.append(ExplainingStage(inner: interceptor, depth: depth, recorder: recorder))
            stages.append(ExplainProbe(name: interceptor.name))
        }
        stages.append(
            ExplainTransportProbe(
                depth: interceptors.count, recorder: recorder, transport: transport))
        client.interceptors = stages
        return (client, recorder)
    }
}

extension Request {
    /// A POSIX shell command (sh, bash, zsh, dash) that sends this same request with curl:
    /// the same method, URL bytes, header lines in order, and body bytes.
    ///
    /// Options go one per line with ` \` continuations, like a browser's "Copy as cURL", and
    /// the output is deterministic. Every word is single-quoted, so `$`, backticks, `!`,
    /// newlines and Unicode reach curl unchanged. curl's own default `Accept`, `User-Agent` and
    /// `Content-Type` headers are switched off when the request lacks them, and so is the
    /// `Expect: 100-continue` curl adds before a body over 1 KiB (1 MiB since curl 7.69.0) or of a
    /// size the command cannot know, so the server sees exactly `wireHeaderFields` plus the `Host`
    /// curl adds.
    ///
    /// The body is given according to what it is made of:
    /// - UTF-8 text without control characters other than line feeds: `--data-binary '…'`.
    /// - Other bytes (NUL, invalid UTF-8, tabs, CR, or text over 64 KiB): piped in from
    ///   `printf` with octal escapes, since argv cannot hold them.
    /// - One file: `--data-binary @'/path'`; files mixed with bytes (a streamed multipart body):
    ///   `{ printf '…'; cat '/path'; … } | curl …`. Files are read whole when the command runs.
    /// - A stream: `--data-binary @-`, so pipe the body into the command; a stream of unknown
    ///   length goes out chunked, as Courier sends it.
    ///
    /// `Content-Length` is passed as one of the `-H` lines: curl then sends that line in its place
    /// and adds none of its own. `GET` and `HEAD` without a body use curl's defaults, other methods
    /// `--request`; a `HEAD` with a body is sent, but curl then waits for a response body.
    ///
    /// The command is for reproducing and sharing a request: it contains the request's
    /// credentials, if any, verbatim.
    public var curlCommand: String {
        CurlCommandLine(self).text
    }
}

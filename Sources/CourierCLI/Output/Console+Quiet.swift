import Foundation

extension Console {
    /// This console as `--quiet` leaves it, as HTTPie's: standard output discarded (`--output`
    /// replaces it with its file afterwards, so a saved response is still saved), and on standard
    /// error only `courier: error:` lines, plus `courier: warning:` and `courier: note:` lines at
    /// `-q` (`-qq` drops them too). Progress bars, `--verbose` logs and `--explain` are dropped.
    ///
    /// Every line the CLI writes to standard error is written whole, so its prefix tells its kind.
    func quieted(level: Int) -> Console {
        guard level > 0 else { return self }
        var quiet = self
        let writeErr = self.writeErr
        let kept = level > 1 ? ["courier: error:"] : ["courier: error:", "courier: warning:", "courier: note:"]
        quiet.writeOut = { _ in }
        quiet.writeErr = { data in
            let text = String(decoding: data, as: UTF8.self)
            if kept.contains(where: text.hasPrefix) { writeErr(data) }
        }
        return quiet
    }
}

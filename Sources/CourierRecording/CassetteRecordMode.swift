public import Courier

/// When a `CassetteTransport` records and when it only replays, as VCR libraries define the modes.
public enum CassetteRecordMode: Sendable, Hashable {
    /// Records every exchange when the cassette file does not exist yet; once it exists, only
    /// replays, and a request with no recorded episode fails. The usual mode: the first run
    /// records, every later run is offline and repeatable.
    case once
    /// Replays the requests that have an episode, and sends the others through the real
    /// transport, appending them to the cassette: for adding a request to a test.
    case newEpisodes
    /// Only replays; a request with no episode fails. For CI, where nothing may reach the network.
    case none
}

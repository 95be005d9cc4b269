import Foundation

/// The names of this process's threads as Linux keeps them (`/proc/self/task/*/comm`), for tests
/// that check a library thread is named: a name longer than 15 bytes is refused, and the thread
/// then keeps its creator's.
public enum ThreadNames {
    /// Every thread's name now; empty where `/proc` cannot be read.
    public static func current() -> Set<String> {
        let tasks = URL(fileURLWithPath: "/proc/self/task")
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks.path) else { return [] }
        var names = Set<String>()
        for id in ids {
            let comm = tasks.appendingPathComponent(id).appendingPathComponent("comm")
            guard let data = FileManager.default.contents(atPath: comm.path) else { continue }
            names.insert(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
        }
        return names
    }
}

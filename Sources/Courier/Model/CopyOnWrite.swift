/// A value's fields behind one reference that copies share until one of them changes (copy on
/// write, as Foundation's `Data` and the standard library's collections keep theirs).
///
/// `Request` and `Response` keep their fields in one: held inline they were 160 and 384 bytes,
/// each copy retained a dozen references, and every async function of the pipeline that holds
/// one kept room for it in its task's frame (about 55 KiB of frames per C send in flight, 9.5 KiB
/// now). A copy is now one retain; the first change to a shared copy copies the fields.
struct CopyOnWrite<Fields> {
    private final class Box {
        // Unchecked: the fields change only while one value holds the box (`fields`'s `_modify`),
        // through that value's accessors, one at a time.
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    init(_ fields: Fields) { box = Box(fields) }

    /// The fields: read in place, and changed in place once this value holds them alone.
    var fields: Fields {
        _read { yield box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }
}

// Unchecked Sendable when the fields are: a box is changed only by the one value that holds it alone.
extension CopyOnWrite: @unchecked Sendable where Fields: Sendable {}

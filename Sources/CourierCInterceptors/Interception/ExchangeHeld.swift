package import Courier

/// A box a handle can name that holds one value an exchange passes through C callbacks.
package protocol ExchangeHoldable: AnyObject {
    associatedtype Held
    /// The value as the callbacks left it.
    var held: Held { get }
}

extension RequestBox: ExchangeHoldable {
    package var held: Request { request }
}

extension ResponseBox: ExchangeHoldable {
    package var held: Response { response }
}

/// Where an exchange keeps its request or its response: a plain value until a callback asks for
/// a handle, then the box that handle names, never both, so an edit made through the handle is
/// never shadowed by a stale copy, and a callback that never asks costs no object.
package enum ExchangeHeld<Box: ExchangeHoldable> {
    /// No callback asked for a handle in this phase.
    case value(Box.Held)
    /// A callback asked: the box, which C edits through its handle, owns the value.
    case boxed(Box)

    /// The value as the callbacks left it, wherever it lives.
    package var current: Box.Held {
        switch self {
        case .value(let value): value
        case .boxed(let box): box.held
        }
    }

    /// The box, if a callback asked for one.
    package var box: Box? {
        guard case .boxed(let box) = self else { return nil }
        return box
    }

    /// The box a handle names: the one made earlier, or one `make` builds around the value.
    package mutating func boxing(with make: (Box.Held) -> Box) -> Box {
        switch self {
        case .boxed(let box):
            return box
        case .value(let value):
            let box = make(value)
            self = .boxed(box)
            return box
        }
    }

    /// Holds `value` as a plain value from now on; returns the box it replaces, if any.
    package mutating func replace(with value: Box.Held) -> Box? {
        let replaced = box
        self = .value(value)
        return replaced
    }

    /// Holds the box's value as a plain value, for an exchange that has ended; returns the box.
    package mutating func unbox() -> Box? {
        guard case .boxed(let box) = self else { return nil }
        self = .value(box.held)
        return box
    }
}

/// A C function's name from `#function`, which spells it `courier_x(_:_:)`.
package func cName(_ function: StaticString) -> String {
    cNames(in: "\(function)")
}

/// `text` with every `#function` spelling in it (`courier_x(_:_:)`) written as C callers know the
/// function (`courier_x`): messages name the function, and may quote one another's.
package func cNames(in text: String) -> String {
    text.replacing(/\((?:_:)+\)/, with: "")
}

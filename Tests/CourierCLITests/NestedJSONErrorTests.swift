import CourierRequestItems
import Testing

@testable import CourierCLI

/// Nested-JSON paths that cannot be read or applied: HTTPie's errors, and the repeated paths
/// `courier` refuses where HTTPie keeps the last value.
@Suite("Nested JSON errors")
struct NestedJSONErrorTests {
    /// The error `arguments` make, or `nil` when they make a body.
    static func error(_ arguments: [String]) throws -> NestedJSONError? {
        do {
            _ = try NestedJSONTests.body(arguments)
            return nil
        } catch let error as NestedJSONError {
            return error
        }
    }

    /// HTTPie's `test_nested_json_errors`: its message, and where its carets point (`highlight`,
    /// the caret line's offset and length). Cases whose carets HTTPie does not test have `nil`.
    @Test(
        arguments: [
            (["A[:=1"], NestedJSONError.Kind.syntax, "Expecting a text, a number or ']'", 2..<3),
            (["A[1:=1"], .syntax, "Expecting ']'", 3..<4),
            (["A[text:=1"], .syntax, "Expecting ']'", 6..<7),
            (["A[text][:=1"], .syntax, "Expecting a text, a number or ']'", 8..<9),
            (
                ["A[key]=value", "B[something]=u", "A[text][:=1", "C[key]=value"], .syntax,
                "Expecting a text, a number or ']'", 8..<9
            ),
            (["A[text]1:=1"], .syntax, "Expecting '['", 7..<8),
            ([#"A\[]:=1"#], .syntax, "Expecting '['", 3..<4),
            ([#"A[something\]:=1"#], .syntax, "Expecting ']'", 13..<14),
            ([#"foo\[bar\]\\[   bleh:=1"#], .syntax, "Expecting ']'", 20..<21),
            ([#"foo\[bar\]\\[   bleh   :=1"#], .syntax, "Expecting ']'", 23..<24),
            (["foo[bar][1]][]:=2"], .syntax, "Expecting '['", 11..<12),
            (["foo[bar][1]something[]:=2"], .syntax, "Expecting '['", 11..<20),
            (["foo[bar][1][142241[]:=2"], .syntax, "Expecting ']'", 18..<19),
            ([#"foo[bar][1]\[142241[]:=2"#], .syntax, "Expecting '['", 11..<19),
            (
                ["foo=1", "foo[key]:=2"], .type,
                "Cannot perform 'key' based access on 'foo' which has a type of 'string' but this operation requires a type of 'object'.",
                3..<8
            ),
            (
                ["foo=1", "foo[0]:=2"], .type,
                "Cannot perform 'index' based access on 'foo' which has a type of 'string' but this operation requires a type of 'array'.",
                3..<6
            ),
            (
                ["foo=1", "foo[]:=2"], .type,
                "Cannot perform 'append' based access on 'foo' which has a type of 'string' but this operation requires a type of 'array'.",
                3..<5
            ),
            (
                ["data[key]=value", "data[key 2]=value 2", "data[0]=value"], .type,
                "Cannot perform 'index' based access on 'data' which has a type of 'object' but this operation requires a type of 'array'.",
                4..<7
            ),
            (
                ["data[key]=value", "data[key 2]=value 2", "data[]=value"], .type,
                "Cannot perform 'append' based access on 'data' which has a type of 'object' but this operation requires a type of 'array'.",
                4..<6
            ),
            (
                ["foo[bar][baz][5]:=[1,2,3]", "foo[bar][baz][5][]:=4", "foo[bar][baz][key][]:=5"], .type,
                "Cannot perform 'key' based access on 'foo[bar][baz]' which has a type of 'array' but this operation requires a type of 'object'.",
                13..<18
            ),
            (["foo[-10]:=[1,2]"], .value, "Negative indexes are not supported.", 4..<7),
            (
                ["foo[0]:=1", "foo[]:=2", #"foo[\2]:=3"#], .type,
                "Cannot perform 'key' based access on 'foo' which has a type of 'array' but this operation requires a type of 'object'.",
                3..<7
            ),
            (
                [#"foo[\1]:=2"#, "foo[5]:=3"], .type,
                "Cannot perform 'index' based access on 'foo' which has a type of 'object' but this operation requires a type of 'array'.",
                3..<6
            ),
            (
                ["x=y", "[]:=2"], .type,
                "Cannot perform 'append' based access on '' which has a type of 'object' but this operation requires a type of 'array'.",
                nil
            ),
            (
                ["[]:=2", "x=y"], .type,
                "Cannot perform 'key' based access on '' which has a type of 'array' but this operation requires a type of 'object'.",
                nil
            ),
            (
                [":=[1,2,3]", "[]:=4"], .type,
                "Cannot perform 'append' based access on '' which has a type of 'object' but this operation requires a type of 'array'.",
                nil
            ),
            (
                ["[]:=4", ":=[1,2,3]"], .type,
                "Cannot perform 'key' based access on '' which has a type of 'array' but this operation requires a type of 'object'.",
                nil
            ),
        ] as [([String], NestedJSONError.Kind, String, Range<Int>?)])
    func httpieErrorsNameTheProblemAndWhereItIs(
        arguments: [String], kind: NestedJSONError.Kind, message: String, highlight: Range<Int>?
    ) throws {
        let error = try #require(try Self.error(arguments))
        #expect(error.kind == kind)
        #expect(error.message == message)
        if let highlight { #expect(error.highlight == highlight) }
    }

    /// HTTPie's documentation examples of a syntax error and of type safety.
    @Test func documentedErrorsPointAtTheMistake() throws {
        let syntax = try #require(try Self.error(["foo[bar]=OK", "foo[baz][quux=FAIL"]))
        #expect(syntax.kind == .syntax && syntax.message == "Expecting ']'" && syntax.highlight == 13..<14)
        #expect(
            syntax.description
                == #"Syntax error in the JSON path "foo[baz][quux" at its end (column 14): Expecting ']'"#)

        let type = try #require(try Self.error(["array[]:=1", "array[]:=2", "array[key]:=3"]))
        #expect(
            type.message
                == "Cannot perform 'key' based access on 'array' which has a type of 'array' but this operation requires a type of 'object'."
        )
        #expect(type.highlight == 5..<10)
        #expect(
            type.description.hasPrefix(
                #"Type error in the JSON path "array[key]" at "[key]" (column 6): Cannot perform"#))
    }

    /// HTTPie replaces a value already set (its documentation: "Type Safety does not apply to value
    /// overrides"); that drops the first value without a word, so `courier` refuses it, naming the path.
    @Test(arguments: [
        (["user[name]:=411", "user[name]=string"], "user[name]", "number"),
        (["a=1", "a=2"], "a", "string"),
        (["user[tags][]=a", "user[tags][0]=b"], "user[tags][0]", "string"),
        (["a[b]=1", "a:=2"], "a", "object"),
        ([#"foo[\dates]:=[2012, 2013]"#, #"foo[\dates][0]:=2014"#], "foo[\\dates][0]", "number"),
        (["[]:=1", "[0]:=2"], "[0]", "number"),
    ])
    func aPathSetTwiceToDifferentValuesIsAnErrorNamingIt(arguments: [String], path: String, type: String) throws {
        let error = try #require(try Self.error(arguments))
        #expect(error.kind == .value)
        #expect(
            error.message.hasPrefix("Cannot set '\(path)' twice: it already holds a value of type '\(type)'"),
            "\(error.message)")
    }

    @Test func theSameValueTwiceIsNotLost() throws {
        #expect(
            try Self.body(["a=1", "a=1", "n:=2", "n:=2", "l[0]=x", "l[0]=x"]) == #"{"a": "1", "n": 2, "l": ["x"]}"#)
    }

    @Test func aPathThroughAScalarIsATypeErrorEvenNull() throws {
        let null = try #require(try Self.error(["a:=null", "a[b]=1"]))
        #expect(
            null.message
                == "Cannot perform 'key' based access on 'a' which has a type of 'null' but this operation requires a type of 'object'."
        )
        let boolean = try #require(try Self.error(["a[]:=true", "a[0][]=1"]))
        #expect(boolean.message.contains("on 'a[0]' which has a type of 'boolean'"))
    }

    @Test func anIndexTooLargeToFillIsAValueError() throws {
        let error = try #require(try Self.error(["a[1000001]=x"]))
        #expect(error.kind == .value && error.highlight == 2..<9)
        let overflow = try #require(try Self.error(["a[99999999999999999999999]=x"]))
        #expect(overflow.kind == .value)
        #expect(try Self.body(["[1000000]=x"]).hasSuffix(#"null, "x"]"#))
    }

    static func body(_ arguments: [String]) throws -> String { try NestedJSONTests.body(arguments) }
}

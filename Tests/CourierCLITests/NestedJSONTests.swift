import CourierRequestItems
import Testing

@testable import CourierCLI

/// The JSON body that data items make, read as HTTPie 3's nested-JSON syntax.
///
/// The cases are HTTPie's own: `test_nested_json_syntax` in its `tests/test_json.py` and the
/// examples of its "Nested JSON" documentation, with the body `courier` sends written out
/// (members in the order first given, as HTTPie sends them).
@Suite("Nested JSON")
struct NestedJSONTests {
    /// The body text `arguments` make, as `RequestFactory` builds it; other items are left out, as HTTPie leaves them.
    static func body(
        _ arguments: [String], readFile: (String) throws -> String = RequestItemParser.readTextFile
    ) throws -> String {
        var builder = NestedJSONBuilder()
        for argument in arguments {
            switch try RequestItemParser.parse(argument, readFile: readFile) {
            case .dataField(let name, let value): try builder.add(name, .string(value))
            case .rawJSONField(let name, let json): try builder.add(name, .raw(json))
            default: continue
            }
        }
        return builder.body.text
    }

    @Test(arguments: [
        // The W3C's HTML JSON form examples, as HTTPie's tests use them.
        (["bottle-on-wall[]:=1", "bottle-on-wall[]:=2", "bottle-on-wall[]:=3"], #"{"bottle-on-wall": [1, 2, 3]}"#),
        (
            ["pet[species]=Dahut", #"pet[name]:="Hypatia""#, "kids[1]=Thelma", #"kids[0]:="Ashley""#],
            #"{"pet": {"species": "Dahut", "name": "Hypatia"}, "kids": ["Ashley", "Thelma"]}"#
        ),
        (
            [
                "pet[0][species]=Dahut", "pet[0][name]=Hypatia", "pet[1][species]=Felis Stultus",
                #"pet[1][name]:="Billie""#,
            ],
            #"{"pet": [{"species": "Dahut", "name": "Hypatia"}, {"species": "Felis Stultus", "name": "Billie"}]}"#
        ),
        (
            ["wow[such][deep][3][much][power][!]=Amaze"],
            #"{"wow": {"such": {"deep": [null, null, null, {"much": {"power": {"!": "Amaze"}}}]}}}"#
        ),
        (
            ["mix[]=scalar", "mix[2]=something", #"mix[4]:="something 2""#],
            #"{"mix": ["scalar", null, "something", null, "something 2"]}"#
        ),
        (["highlander[]=one"], #"{"highlander": ["one"]}"#),
        (
            ["error[good]=BOOM!", #"error\[bad:="BOOM BOOM!""#],
            #"{"error": {"good": "BOOM!"}, "error[bad": "BOOM BOOM!"}"#
        ),
        (
            ["special[]:=true", "special[]:=false", #"special[]:="true""#, "special[]:=null"],
            #"{"special": [true, false, "true", null]}"#
        ),
    ])
    func htmlJSONFormExamples(arguments: [String], expected: String) throws {
        #expect(try Self.body(arguments) == expected)
    }

    @Test(arguments: [
        (
            [#"\[\]:=1"#, #"escape\[d\]:=1"#, #"escaped\[\]:=1"#, #"e\[s\][c][a][p][\[ed\]][]:=1"#],
            #"{"[]": 1, "escape[d]": 1, "escaped[]": 1, "e[s]": {"c": {"a": {"p": {"[ed]": [1]}}}}}"#
        ),
        ([#"\]:=1"#, #"\[\]1:=1"#, #"\[1\]\]:=1"#], #"{"]": 1, "[]1": 1, "[1]]": 1}"#),
        (
            [#"foo\[bar\][baz]:=1"#, #"foo\[bar\]\[baz\]:=3"#, #"foo[bar][\[baz\]]:=4"#],
            #"{"foo[bar]": {"baz": 1}, "foo[bar][baz]": 3, "foo": {"bar": {"[baz]": 4}}}"#
        ),
        (
            [
                "foo[]:=1", "foo[]:=2", "foo[][key]=value", "foo[2][key 2]=value 2", #"foo[2][key \[]=value 3"#,
                #"bar[nesting][under][!][empty][?][\\key]:=4"#,
            ],
            #"{"foo": [1, 2, {"key": "value", "key 2": "value 2", "key [": "value 3"}], "bar": {"nesting": {"under": {"!": {"empty": {"?": {"\\key": 4}}}}}}}"#
        ),
        // `baz\[\]:3` is a header item, not data: it stays out of the body.
        (
            [
                #"foo\[key\]:=1"#, #"bar\[1\]:=2"#, #"baz\[\]:3"#, #"quux[key\[escape\]]:=4"#,
                #"quux[key 2][\\][\\\\][\\\[\]\\\]\\\[\n\\]:=5"#,
            ],
            #"{"foo[key]": 1, "bar[1]": 2, "quux": {"key[escape]": 4, "key 2": {"\\": {"\\\\": {"\\[]\\]\\[\\n\\": 5}}}}}"#
        ),
        ([#"A[B\\]=C"#, #"A[B\\\\]=C"#, #"A[\B\\]=C"#], #"{"A": {"B\\": "C", "B\\\\": "C", "\\B\\": "C"}}"#),
        (
            [
                #"a[\0]:=0"#, #"a[\\1]:=1"#, #"a[\\\2]:=2"#, #"a[\\\\\3]:=3"#, #"a[-1\\]:=-1"#, #"a[-2\\\\]:=-2"#,
                #"a[\\-3\\\\]:=-3"#,
            ],
            #"{"a": {"0": 0, "\\1": 1, "\\\\2": 2, "\\\\\\3": 3, "-1\\": -1, "-2\\\\": -2, "\\-3\\\\": -3}}"#
        ),
        (
            [#"\1=top level int"#, #"\\1=escaped top level int"#, #"\2[\3][\4]:=5"#],
            #"{"1": "top level int", "\\1": "escaped top level int", "2": {"3": {"4": 5}}}"#
        ),
    ])
    func backslashesEscapeBracketsBackslashesAndIndexes(arguments: [String], expected: String) throws {
        #expect(try Self.body(arguments) == expected)
    }

    @Test(arguments: [
        (["key[]:=1", "key[][]:=2", "key[][][]:=3", "key[][][]:=4"], #"{"key": [1, [2], [[3]], [[4]]]}"#),
        (["x[0]:=1", "x[]:=2", "x[]:=3", "x[][]:=4", "x[][]:=5"], #"{"x": [1, 2, 3, [4], [5]]}"#),
        (
            [
                "foo[bar][5][]:=5", "foo[bar][]:=6", "foo[bar][][]:=7", "foo[bar][][x]=dfasfdas", "foo[baz]:=[1, 2, 3]",
                "foo[baz][]:=4",
            ],
            #"{"foo": {"bar": [null, null, null, null, null, [5], 6, [7], {"x": "dfasfdas"}], "baz": [1, 2, 3, 4]}}"#
        ),
        (
            [
                "name=python", "version:=3", "date[year]:=2021", "date[month]=December", "systems[]=Linux",
                "systems[]=Mac",
                "systems[]=Windows", "people[known_ids][1]:=1000", "people[known_ids][5]:=5000",
            ],
            #"{"name": "python", "version": 3, "date": {"year": 2021, "month": "December"}, "systems": ["Linux", "Mac", "Windows"], "people": {"known_ids": [null, 1000, null, null, null, 5000]}}"#
        ),
        // HTTPie's case also sends `foo[\dates][0]:=2014`, replacing 2012; that is refused here (see NestedJSONErrorTests).
        (
            [
                #"foo[\1][type]=migration"#, #"foo[\2][type]=migration"#, #"foo[\dates]:=[2012, 2013]"#,
                #"foo[\2012 bleh]:=2013"#, #"foo[bleh \2012]:=2014"#, #"\2012[x]:=2"#, #"\2012[\[3\]]:=4"#,
            ],
            #"{"foo": {"1": {"type": "migration"}, "2": {"type": "migration"}, "\\dates": [2012, 2013], "\\2012 bleh": 2013, "bleh \\2012": 2014}, "2012": {"x": 2, "[3]": 4}}"#
        ),
        (
            ["=empty", "foo=bar", "bar[baz][quux]=tuut"],
            #"{"": "empty", "foo": "bar", "bar": {"baz": {"quux": "tuut"}}}"#
        ),
        ([#":={"foo": {"bar": "baz"}}"#, "top=val"], #"{"": {"foo": {"bar": "baz"}}, "top": "val"}"#),
        ([":=[1,2,3]"], #"{"": [1,2,3]}"#),
        ([":=[1,2,3]", "foo=bar"], #"{"": [1,2,3], "foo": "bar"}"#),
    ])
    func pathsAppendIndexAndNestAsHTTPieTestsThem(arguments: [String], expected: String) throws {
        #expect(try Self.body(arguments) == expected)
    }

    @Test(arguments: [
        (["[]:=1", "[]=foo"], #"[1, "foo"]"#),
        (["[]:=0", "[]:=1", "[5]:=5", "[]:=6", "[9]:=9"], "[0, 1, null, null, null, 5, 6, null, null, 9]"),
        (["[][a][b][]:=1", "[0][a][b][]:=2", "[][]:=2"], #"[{"a": {"b": [1, 2]}}, [2]]"#),
    ])
    func aPathStartingWithABracketMakesATopLevelArray(arguments: [String], expected: String) throws {
        #expect(try Self.body(arguments) == expected)
    }

    @Test func fileContentsNestLikeValues() throws {
        let read: (String) throws -> String = { path in path == "data.json" ? #"{"a": [1, 2]}"# : "text\n" }
        #expect(
            try Self.body(["x=@file.txt", "y[z]=@file.txt", "q[u][]:=@data.json"], readFile: read)
                == #"{"x": "text\n", "y": {"z": "text\n"}, "q": {"u": [{"a": [1, 2]}]}}"#)
    }

    @Test func aSparseArrayIsFilledWithNull() throws {
        let text = try Self.body(["test[0]:=1", "test[100]:=1"])
        #expect(text == #"{"test": [1, "# + Array(repeating: "null", count: 99).joined(separator: ", ") + ", 1]}")
    }

    /// The examples of HTTPie's "Nested JSON" documentation (its JSON shown with sorted keys, here in the order given).
    @Test(arguments: [
        (
            [
                "platform[name]=HTTPie", "platform[about][mission]=Make APIs simple and intuitive",
                "platform[about][homepage]=httpie.io", "platform[about][homepage]=httpie.io",
                "platform[about][stars]:=54000",
                "platform[apps][]=Terminal", "platform[apps][]=Desktop", "platform[apps][]=Web",
                "platform[apps][]=Mobile",
            ],
            #"{"platform": {"name": "HTTPie", "about": {"mission": "Make APIs simple and intuitive", "homepage": "httpie.io", "stars": 54000}, "apps": ["Terminal", "Desktop", "Web", "Mobile"]}}"#
        ),
        (
            ["category=tools", "search[type]=id", "search[id]:=1"],
            #"{"category": "tools", "search": {"type": "id", "id": 1}}"#
        ),
        (
            ["category=tools", "search[type]=keyword", "search[keywords][]=APIs", "search[keywords][]=CLI"],
            #"{"category": "tools", "search": {"type": "keyword", "keywords": ["APIs", "CLI"]}}"#
        ),
        (
            ["category=tools", "search[type]=keyword", "search[keywords][1]=APIs", "search[keywords][0]=CLI"],
            #"{"category": "tools", "search": {"type": "keyword", "keywords": ["CLI", "APIs"]}}"#
        ),
        (
            [
                "category=tools", "search[type]=platforms", "search[platforms][]=Terminal",
                "search[platforms][1]=Desktop", "search[platforms][3]=Mobile",
            ],
            #"{"category": "tools", "search": {"type": "platforms", "platforms": ["Terminal", "Desktop", null, "Mobile"]}}"#
        ),
        (
            [
                "category=tools", "search[type]=platforms", #"search[platforms]:=["Terminal", "Desktop"]"#,
                "search[platforms][]=Web", "search[platforms][]=Mobile",
            ],
            #"{"category": "tools", "search": {"type": "platforms", "platforms": ["Terminal", "Desktop", "Web", "Mobile"]}}"#
        ),
        (
            [
                "shallow=value", "object[key]=value", "array[]:=1", "array[1]:=2", "array[2]:=3",
                "very[nested][json][3][httpie][power][]=Amaze",
            ],
            #"{"shallow": "value", "object": {"key": "value"}, "array": [1, 2, 3], "very": {"nested": {"json": [null, null, null, {"httpie": {"power": ["Amaze"]}}]}}}"#
        ),
        (["[]:=1", "[]:=2", "[]:=3"], "[1, 2, 3]"),
        (
            ["[0][type]=platform", "[0][name]=terminal", "[1][type]=platform", "[1][name]=desktop"],
            #"[{"type": "platform", "name": "terminal"}, {"type": "platform", "name": "desktop"}]"#
        ),
        ([#"foo\[bar\]:=1"#, #"baz[\[]:=2"#, #"baz[\]]:=3"#], #"{"foo[bar]": 1, "baz": {"[": 2, "]": 3}}"#),
        ([#"backslash[\\]:=1"#], #"{"backslash": {"\\": 1}}"#),
        (
            [#"object[\1]=stringified"#, #"object[\100]=same"#, "array[1]=indexified"],
            #"{"object": {"1": "stringified", "100": "same"}, "array": [null, "indexified"]}"#
        ),
    ])
    func httpieDocumentationExamples(arguments: [String], expected: String) throws {
        #expect(try Self.body(arguments) == expected)
    }

    @Test func aNumberAsTheRootIsAKeySpelledAsWritten() throws {
        #expect(try Self.body(["007=bond", "-1:=2", "1[2]=x"]) == #"{"007": "bond", "-1": 2, "1": [null, null, "x"]}"#)
    }

    @Test func rawJSONKeepsItsSpellingUntilAPathGoesInside() throws {
        #expect(try Self.body(["n:=1.50", #"o:={"b":1.0,"a":[ ]}"#]) == #"{"n": 1.50, "o": {"b":1.0,"a":[ ]}}"#)
        #expect(try Self.body([#"o:={"b":1.0,"a":[ ]}"#, "o[a][]:=2e3"]) == #"{"o": {"b": 1.0, "a": [2e3]}}"#)
    }

    @Test func formNamesAreTextNotPaths() throws {
        let line = try RequestLine.parse(["example.org", "a[b]=1", #"c\[d\\e=2"#])
        let names = line.items.compactMap { item -> String? in
            if case .dataField(let name, _) = item { name.text } else { nil }
        }
        #expect(names == ["a[b]", #"c\[d\e"#])
    }
}

/// One `ITEM` argument in the HTTPie style: a header, a query item, a body field or a file upload.
///
/// The separator decides the kind (`Name:Value`, `name==value`, `name=value`, `name:=json`,
/// `field@path`, …); see `RequestItemParser` for how an argument is split and unescaped.
public enum RequestItem: Sendable, Equatable {
    /// `Name:Value` (or `Name:@file` for the file's text): a header line, added after the defaults it replaces.
    case header(name: String, value: String)
    /// `Name:`: no such header, not even the one `courier` adds by default (`User-Agent`, `Accept`).
    case removedHeader(name: String)
    /// `Name;`: the header sent with an empty value.
    case emptyHeader(name: String)
    /// `name==value` (or `name==@file` for the file's text, trailing line feeds removed as HTTPie
    /// does): a query item, appended to the URL's own.
    case query(name: String, value: String)
    /// `name=value` (or `name=@file` for the file's text): a string field of the JSON or form body.
    ///
    /// In a JSON body the name is a nested path (`user[tags][]=a`); see `NestedJSONPath`.
    case dataField(name: FieldName, value: String)
    /// `name:=json` (or `name:=@file`): a field whose value is raw JSON, kept as written; JSON bodies only.
    case rawJSONField(name: FieldName, json: String)
    /// `field@path`: a file uploaded as a multipart part; makes the body `multipart/form-data`.
    case file(field: String, path: String, type: String?)

    /// Whether the item puts something in the request body.
    public var isBodyItem: Bool {
        switch self {
        case .dataField, .rawJSONField, .file: true
        case .header, .removedHeader, .emptyHeader, .query: false
        }
    }
}

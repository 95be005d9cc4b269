// CourierFoundation: the core's bridges to full Foundation, apart because they need it (and with
// it ICU, 38 MB) where the core runs on FoundationEssentials alone. `import CourierFoundation`
// gives everything `import Courier` does, plus `URLRequest` conversion and building
// (`URLRequest { }`, `updating { }`), `InputStream` bodies, the transport hints a `URLRequest`
// carries, and the spellings of DeclarativeNetworking and "HTTP in Swift".
@_exported public import Courier

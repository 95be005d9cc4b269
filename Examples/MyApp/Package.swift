// swift-tools-version: 6.1
// The manifest of README.md's "Swift" section and of the Getting Started article, whole: an app
// beside a checkout of Courier in ../courier. ReadmeManifestTests compiles it with `swift package
// dump-package` and checks what it asks for; it has no sources and is never built.
import PackageDescription

let package = Package(
    name: "MyApp",
    // README: package
    // Package.swift
    dependencies: [
        .package(path: "../courier"),
    ],
    targets: [
        .target(name: "MyApp", dependencies: [.product(name: "CourierCurl", package: "courier")]),
    ]
    // README: end
)

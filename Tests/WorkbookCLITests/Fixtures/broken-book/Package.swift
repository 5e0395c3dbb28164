// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "BrokenBook",
    targets: [.target(name: "Broken")],
    swiftLanguageModes: [.v6]
)

/// A greeting for `name`.
func greeting(for name: String) -> String {
    "Hello, \(name)!"
}

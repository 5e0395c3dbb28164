/// A greeting for `name`.
func greeting(for name: String) -> String {
    // TODO: Greet by name.
    ""
}

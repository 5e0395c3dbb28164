func greet(_ name: String) -> String { fatalError("write me") }

/// Twice `n`.
func double(_ n: Int) -> Int {
    // TODO: Double it.
    n
}

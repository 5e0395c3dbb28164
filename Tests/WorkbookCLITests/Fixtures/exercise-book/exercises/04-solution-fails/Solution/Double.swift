/// Twice `n`.
func double(_ n: Int) -> Int {
    n + 2
}

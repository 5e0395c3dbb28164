/// Whether `n` is even.
func isEven(_ n: Int) -> Bool {
    // TODO: Decide.
    n % 2 == 0
}

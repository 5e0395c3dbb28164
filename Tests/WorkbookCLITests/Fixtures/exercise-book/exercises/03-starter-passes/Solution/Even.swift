/// Whether `n` is even.
func isEven(_ n: Int) -> Bool {
    n % 2 == 0
}

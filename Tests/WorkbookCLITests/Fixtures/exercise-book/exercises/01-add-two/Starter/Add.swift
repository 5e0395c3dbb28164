/// The sum of two numbers.
func add(_ a: Int, _ b: Int) -> Int {
    // TODO: Return the sum of a and b.
    0
}

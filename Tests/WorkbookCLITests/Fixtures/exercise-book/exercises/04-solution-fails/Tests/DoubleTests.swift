import Testing

@testable import SolutionFails

struct DoubleTests {
    /// Read: chapters/01-numbers.md#halving
    @Test func threeDoubledIsSix() {
        #expect(double(3) == 6, "double(3) must be 6")
    }
}

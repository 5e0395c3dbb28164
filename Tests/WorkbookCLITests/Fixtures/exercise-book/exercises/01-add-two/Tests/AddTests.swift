import Testing

@testable import AddTwo

struct AddTests {
    /// Read: chapters/01-numbers.md#adding
    @Test func twoAndTwoMakeFour() {
        #expect(add(2, 2) == 4, "add(2, 2) must be 4: return a + b")
    }

    /// Adding nothing to nothing.
    /// Read: chapters/01-numbers.md#adding
    @Test func zeroAndZeroMakeZero() {
        #expect(add(0, 0) == 0, "add(0, 0) must be 0")
    }
}

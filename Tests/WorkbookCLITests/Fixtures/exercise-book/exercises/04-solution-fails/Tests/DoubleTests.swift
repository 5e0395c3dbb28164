import Testing

@testable import SolutionFails

struct DoubleTests {
    @Test func threeDoubledIsSix() {
        #expect(double(3) == 6, "double(3) must be 6")
    }
}

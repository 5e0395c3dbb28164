import Testing

@testable import StarterPasses

struct EvenTests {
    @Test func fourIsEven() {
        #expect(isEven(4), "4 is even")
    }
}

import Testing

@testable import SayHello

struct GreetingTests {
    /// Read: chapters/01-numbers.md#greeting-someone
    @Test func aGreetingNamesThePerson() {
        #expect(greeting(for: "Ada") == "Hello, Ada!", "the greeting is Hello, NAME!")
    }
}

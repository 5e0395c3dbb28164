import Testing

@testable import SayHello

struct GreetingTests {
    @Test func aGreetingNamesThePerson() {
        #expect(greeting(for: "Ada") == "Hello, Ada!", "the greeting is Hello, NAME!")
    }
}

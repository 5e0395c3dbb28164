import Literate

extension MarkdownNode {
    /// Walks the tree depth-first, calling `walker` on entering and on leaving every node, like
    /// `walk(_:)`. Defined here so that the compiler specialises it for each of the site's
    /// walkers (the renderer runs over megabytes of book), and so that children are visited in
    /// place rather than copied.
    func traverse<Walker: MarkdownWalker>(_ walker: inout Walker) {
        walker.visit(self, entering: true)
        for index in children.indices { children[index].traverse(&walker) }
        walker.visit(self, entering: false)
    }
}

/// Two passes driven by one traversal: each walker still sees every node on entering and on
/// leaving, as if it walked alone, but the tree is read once. The site pairs the passes that
/// run over the same page at the same time (anchors with links, HTML with search sections).
struct WalkerPair<First: MarkdownWalker, Second: MarkdownWalker>: MarkdownWalker {
    var first: First
    var second: Second

    mutating func visit(_ node: MarkdownNode, entering: Bool) {
        first.visit(node, entering: entering)
        second.visit(node, entering: entering)
    }
}

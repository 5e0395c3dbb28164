import Foundation
import Literate
import MockServer
import Weave

/// The words this book's own site code says (``BookSite``, ``BookSourcePages``, the restart
/// notice of ``LiveSiteBuilder``), each a key of the theme's `words.json`, in one declared list
/// that the build checks.
package enum BookWord: String, CaseIterable, Sendable {
    case siteName = "site.name"
    case apiTitle = "book.api.title"
    case apiLiveNote = "book.api.live-note.html"
    case tryItOfflineNote = "book.tryit.offline.html"
    case homeMockServer = "book.home.mock-server"
    case homeEvidence = "book.home.evidence"

    case sourcesTitle = "sources.title"
    case sourcesIntroduction = "sources.intro.markdown"
    case sourcesHowLabels = "sources.how-labels.markdown"
    case sourcesEntry = "sources.entry.markdown"
    case sourcesEntryNoCopy = "sources.entry-no-copy.markdown"
    case decisionsTitle = "decisions.title"
    case decisionsIntroduction = "decisions.intro.markdown"
    case decisionsAreaSDK = "decisions.area.sdk"
    case decisionsAreaMockServer = "decisions.area.mock-server"
    case decisionsAreaMatchers = "decisions.area.matchers"
    case decisionsAreaTooling = "decisions.area.tooling"

    case restartDrift = "live.restart.drift"
    case restartNewerOne = "live.restart.newer.one"
    case restartNewerOther = "live.restart.newer.other"
}

extension SiteWords {
    subscript(_ word: BookWord) -> String { self[word.rawValue] }

    func format(_ word: BookWord, _ values: [String: String]) -> String { format(word.rawValue, values) }
}

extension BookSite {
    /// The words of a build with `options`: the options' (a translated build's), else the theme's.
    /// A theme without readable words gives none here (each word then shows its key); the build
    /// itself reports the file.
    package static func words(_ options: SiteOptions) -> SiteWords {
        options.words ?? (try? SiteWords.load(themeFolder: options.themeFolder)) ?? SiteWords()
    }

    /// An error naming the words this book's code and the server's pages use that `words` lacks.
    static func missingWords(_ words: SiteWords) -> Diagnostic? {
        words.missingDiagnostic(
            BookWord.allCases.map(\.rawValue) + ServerWords.keys, usedBy: "the book's site and server pages")
    }

    /// The server's pages' words (``ServerWords``) from the theme's.
    package static func serverWords(_ words: SiteWords) -> ServerWords {
        ServerWords { key, values in words.format(key, values) }
    }
}

extension LiveSiteBuilder.Settings {
    /// The words of the pages the server writes itself, from the theme's.
    package var serverWords: ServerWords {
        BookSite.serverWords((try? SiteWords.load(themeFolder: themeFolder)) ?? SiteWords())
    }
}

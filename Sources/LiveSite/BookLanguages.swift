import Foundation
import Literate
import Translations
import Weave

/// The languages the book's site is written in: English, the book's own, at the site's root,
/// and one folder per translation (`po/LANG.po` gives `OUT/LANG/`), with the same file names.
package enum BookLanguages {
    /// Each language's name in that language, for the language switch.
    package static let names = ["en": "English", "vi": "Tiếng Việt"]

    /// The options of every site a build writes: `options` (English) first, then one per PO
    /// file of the book, each in `LANG/` under the English site's folder. A PO file that cannot
    /// be read stops the build, at its line.
    package static func sites(_ options: SiteOptions) throws(Diagnostic) -> [SiteOptions] {
        try [english(options)] + translations(options)
    }

    /// The English site's options: `options` with the other languages to link to.
    package static func english(_ options: SiteOptions) throws(Diagnostic) -> SiteOptions {
        var english = options
        english.otherLanguages = try languages(options).map {
            SiteLanguage(code: $0, name: name($0), root: "\($0)/")
        }
        return english
    }

    private static func languages(_ options: SiteOptions) throws(Diagnostic) -> [String] {
        do {
            return try Translations.languages(root: options.bookRoot)
        } catch {
            throw Diagnostic(.error, text: error.description, at: nil)
        }
    }

    /// The options of each translation's site (its PO file read), in `LANG/` under the English
    /// site's folder.
    package static func translations(_ options: SiteOptions) throws(Diagnostic) -> [SiteOptions] {
        let languages = try languages(options)
        var sites: [SiteOptions] = []
        guard !languages.isEmpty else { return sites }
        let sourceWords: SiteWords
        if let words = options.words {
            sourceWords = words
        } else {
            sourceWords = try SiteWords.load(themeFolder: options.themeFolder)
        }
        for language in languages {
            var translated = options
            translated.outputFolder = options.outputFolder.appendingPathComponent(language)
            translated.language = language
            translated.serverRoot = options.serverRoot + "\(language)/"
            let translation: SiteTranslation
            do {
                translation = try Translations.siteTranslation(root: options.bookRoot, language: language)
            } catch {
                throw Diagnostic(.error, text: error.description, at: nil)
            }
            // The site's own words in the language, each one the translation has; and back, so
            // that the generated headings keep their English anchors.
            var words = sourceWords
            var originals: [String: String] = [:]
            for (key, word) in sourceWords.entries {
                guard let translatedWord = translation.message(word) else { continue }
                words.entries[key] = translatedWord
                originals[translatedWord] = word
            }
            let back = originals
            translated.translation = SiteTranslation(
                language: language, markdown: translation.markdown, message: translation.message,
                original: { back[$0] })
            translated.words = words
            // The pages' titles and headings that the book's configuration takes from the words.
            let includesSolutions = translated.includeSolutions
            BookSite.configure(&translated)
            translated.includeSolutions = includesSolutions
            translated.otherLanguages =
                [SiteLanguage(code: options.language, name: name(options.language), root: "../")]
                + languages.filter { $0 != language }.map {
                    SiteLanguage(code: $0, name: name($0), root: "../\($0)/")
                }
            sites.append(translated)
        }
        return sites
    }

    private static func name(_ code: String) -> String { names[code] ?? code }
}

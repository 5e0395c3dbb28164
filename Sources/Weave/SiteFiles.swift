import FileStamps
import Foundation
import Literate
import SystemErrors

/// The last stage: the site's files that are not pages — the print page, the search index, the
/// marker that lets a rebuild empty the folder, the theme's assets, highlight.js and the book's
/// files that pages link to — independent writes, done side by side. Also every file-system
/// write of the build, each failure reported as `path: what went wrong (strerror text)`.
enum SiteFiles {
    /// What the stage wrote.
    struct Written {
        /// The pages among the files (the print page, when the book has chapters).
        var pages: [String]
        var count: Int
    }

    static func write(_ written: PageWriting, input: SiteInput, copies: Set<String>) throws(Diagnostic)
        -> Written
    {
        var files: [FileJob] = []
        var pages: [String] = []
        if !written.printParts.isEmpty {
            let parts = written.printParts
            let site = written.site
            let cache = input.options.cache
            files.append(
                FileJob(path: "print.html") {
                    guard let cache else { return site.printPage(parts) }
                    return [
                        cache.printPage(context: site.pageInputs, parts: parts) {
                            let pieces = site.printPage(parts)
                            var file: [UInt8] = []
                            file.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
                            for piece in pieces {
                                piece.withUnsafeBufferPointer { file.append(contentsOf: $0) }
                            }
                            return file
                        }[...]
                    ]
                })
            pages.append("print.html")
        }
        let language = SearchLanguage(code: input.options.language)
        let index =
            input.options.cache?.searchIndex(parts: written.searchParts, language: language) {
                SearchIndex.json(parts: written.searchParts, language: language)
            } ?? SearchIndex.json(parts: written.searchParts, language: language)
        files.append(FileJob(path: "search-index.json", bytes: index))
        files.append(FileJob(path: "search-index.js") { SearchIndex.script(pieces: index) })
        files.append(FileJob(path: SiteBuilder.marker, bytes: Array("written by workbook build\n".utf8)))
        let theme = input.theme
        for asset in theme.assetFiles {
            files.append(
                FileJob(
                    path: "assets/" + asset, source: theme.folder.appendingPathComponent("assets/" + asset)))
        }
        if let highlight = written.highlight {
            files.append(FileJob(path: "assets/vendor/highlight.min.js", source: highlight))
            let license = URL(fileURLWithPath: "/usr/share/doc/libjs-highlight.js/copyright")
            if FileManager.default.fileExists(atPath: license.path) {
                files.append(FileJob(path: "assets/vendor/highlight.js-copyright.txt", source: license))
            }
        }
        for path in copies.sorted() {
            files.append(FileJob(path: path, source: input.options.bookRoot.appendingPathComponent(path)))
        }
        let folder = input.options.outputFolder
        // A copy whose source has the stamp it had in the previous build is linked from there.
        let (copied, previous) = input.options.cache?.copiedFiles() ?? ([:], nil)
        let stamps = ConcurrentMap.map(files) { job -> Result<FileStamp?, Diagnostic> in
            guard let source = job.source else { return job.run(into: folder).map { nil } }
            let stamp = FileStamp.of(source.path)
            if let stamp, copied[job.path] == stamp, link(job.path, from: previous, into: folder) {
                return .success(stamp)
            }
            return job.run(into: folder).map { stamp }
        }
        var remembered: [String: FileStamp] = [:]
        for (job, result) in zip(files, stamps) {
            switch result {
            case .success(let stamp): remembered[job.path] = stamp
            case .failure(let diagnostic): throw diagnostic
            }
        }
        input.options.cache?.rememberCopies(remembered, folder: folder)
        return Written(pages: pages, count: files.count)
    }

    // MARK: Writing files

    /// Empties the output folder if an earlier build wrote it; refuses any other non-empty folder.
    static func prepareOutput(_ folder: URL) throws(Diagnostic) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw notOurs(folder) }
            let contents: [String]
            do {
                contents = try fileManager.contentsOfDirectory(atPath: folder.path)
            } catch {
                throw failure(folder.path, .readFolder, error)
            }
            if !contents.isEmpty && !contents.contains(SiteBuilder.marker) { throw notOurs(folder) }
            if !contents.isEmpty {
                do { try fileManager.removeItem(at: folder) } catch {
                    throw failure(folder.path, .removeEarlierSite, error)
                }
            }
        }
        try createFolder(folder)
    }

    /// Writes `pieces` one after the other to `path` inside `folder`, creating folders as needed.
    static func write(_ path: String, pieces: [ArraySlice<UInt8>], into folder: URL) throws(Diagnostic) {
        let url = folder.appendingPathComponent(path)
        do {
            try writeFile(url.path, pieces)
        } catch let error as POSIXError where error.code == .ENOENT || error.code == .ENOTDIR {
            // The folder is made the first time a file in it is written: asking for it before
            // every file costs more than writing a small file. (A file where a folder should be
            // fails here, named as the folder it is.)
            try createFolder(url.deletingLastPathComponent())
            do { try writeFile(url.path, pieces) } catch { throw failure(url.path, .write, error) }
        } catch {
            throw failure(url.path, .write, error)
        }
    }

    /// Links `path` inside `previous` (an earlier build's folder) to `path` inside `folder`,
    /// creating folders as needed; false when it cannot (no previous folder, the file gone, a
    /// file system without hard links), and the caller writes the file instead. Only ever into a
    /// fresh folder, so no later write truncates a file that an earlier site still serves.
    static func link(_ path: String, from previous: URL?, into folder: URL) -> Bool {
        guard let previous else { return false }
        // Joined as strings: `URL.appendingPathComponent` costs more than the link itself.
        let (source, target) = (previous.path + "/" + path, folder.path + "/" + path)
        if Foundation.link(source, target) == 0 { return true }
        // As for a write, the folder is made when the first file in it needs it.
        guard errno == ENOENT, FileManager.default.fileExists(atPath: source),
            (try? createFolder(URL(fileURLWithPath: target).deletingLastPathComponent())) != nil
        else { return false }
        return Foundation.link(source, target) == 0
    }

    /// Copies `source` to `path` inside `folder`, creating folders as needed.
    static func copy(_ source: URL, to path: String, into folder: URL) throws(Diagnostic) {
        let url = folder.appendingPathComponent(path)
        try createFolder(url.deletingLastPathComponent())
        do {
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.copyItem(at: source, to: url)
        } catch {
            throw failure(url.path, .copy(from: source.path), error)
        }
    }

    private static func createFolder(_ url: URL) throws(Diagnostic) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw failure(url.path, .createFolder, error)
        }
    }

    /// The error a user sees for a failed file operation: `path: cannot … (strerror text)`.
    static func failure(_ path: String, _ operation: WeaveMessage.FileOperation, _ error: any Error)
        -> Diagnostic
    {
        let message = WeaveMessage.fileFailed(
            path: path, operation: operation, reason: SystemError.describe(error))
        return Diagnostic(.error, text: message.text, at: nil)
    }

    private static func notOurs(_ folder: URL) -> Diagnostic {
        Diagnostic(.error, text: WeaveMessage.outputNotOurs(path: folder.path).text, at: nil)
    }

    /// Writes the pieces with `open`/`write`, straight from their buffers: joining them, or
    /// making `Data` of them, would copy every page once more, and the site is megabytes of pages.
    private static func writeFile(_ path: String, _ pieces: [ArraySlice<UInt8>]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw SystemError.current() }
        defer { close(descriptor) }
        for piece in pieces {
            try piece.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(
                        descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw SystemError.current()
                    }
                    offset += written
                }
            }
        }
    }
}

/// A file of the site that is not a page: pieces made on demand, bytes at hand, or a copy.
struct FileJob: Sendable {
    var path: String
    var make: (@Sendable () -> [ArraySlice<UInt8>])?
    var bytes: [UInt8]?
    var source: URL?

    init(path: String, make: @escaping @Sendable () -> [ArraySlice<UInt8>]) {
        (self.path, self.make) = (path, make)
    }

    init(path: String, bytes: [UInt8]) {
        (self.path, self.bytes) = (path, bytes)
    }

    init(path: String, source: URL) {
        (self.path, self.source) = (path, source)
    }

    func run(into folder: URL) -> Result<Void, Diagnostic> {
        do throws(Diagnostic) {
            if let source {
                try SiteFiles.copy(source, to: path, into: folder)
            } else {
                try SiteFiles.write(path, pieces: make?() ?? bytes.map { [$0[...]] } ?? [], into: folder)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

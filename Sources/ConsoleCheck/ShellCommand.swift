import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one transcript command with `/bin/sh -c`, as a reader's terminal would, and collects
/// what it printed (standard output and standard error together, as the terminal shows them).
///
/// The command gets its own process group, so that on a timeout the shell *and* everything it
/// started (a `curl` in a pipeline) are killed together. Output goes to a file rather than a
/// pipe: a killed pipeline cannot leave a writer holding the pipe open.
///
/// ```swift
/// let run = ShellCommand.run("echo hi", in: folder, outputFile: file, timeout: .seconds(5))
/// run.output  // "hi\n"
/// ```
package enum ShellCommand {
    struct Run: Equatable {
        var output: String
        /// The exit status, or nil when the command was killed at the timeout.
        var status: Int32?
        var timedOut: Bool { status == nil }
    }

    /// The largest output kept; a transcript never shows more.
    static let outputLimit = 1 << 20

    /// `searchFirst`, when given, is put in front of the inherited `PATH`.
    static func run(
        _ command: String, in directory: URL, outputFile: URL, timeout: Duration, searchFirst: URL? = nil
    ) -> Run {
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // `cd` inside the shell: posix_spawn's own chdir action is not portable.
        let script = "cd \"$0\" || exit 127\n" + command
        let arguments = ["/bin/sh", "-c", script, directory.path]
        var variables = ProcessInfo.processInfo.environment
        if let searchFirst {
            variables["PATH"] = [searchFirst.path, variables["PATH"]].compactMap { $0 }.joined(separator: ":")
        }
        let environment = variables.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
            }
        }
        guard spawned == 0 else {
            return Run(output: "cannot start /bin/sh: \(String(cString: strerror(spawned)))\n", status: 127)
        }
        let status = wait(for: pid, timeout: timeout)
        // Whatever the shell left running in the background goes with it.
        kill(-pid, SIGKILL)
        let data = (try? FileHandle(forReadingFrom: outputFile).readData(ofLength: outputLimit)) ?? Data()
        return Run(output: String(decoding: data, as: UTF8.self), status: status)
    }

    /// Waits for `pid` to exit; kills its process group and returns nil at the timeout.
    private static func wait(for pid: pid_t, timeout: Duration) -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return exitCode(status) }
            if result < 0 && errno != EINTR { return 127 }
            if clock.now >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return nil
            }
            // Local commands finish in milliseconds; a short poll keeps the checker quick
            // without a thread per command.
            usleep(1_000)
        }
    }

    private static func exitCode(_ status: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let pointers = strings.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers + [nil])
    }
}

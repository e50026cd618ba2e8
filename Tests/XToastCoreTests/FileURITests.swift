import Testing

@testable import XToastCore

/// `file:` URIs, as applications and notify-send name their pictures (RFC 8089).
@Suite("File URIs")
struct FileURITests {
    @Test(
        "A local file URI is its path, %-escapes read; anything else is itself",
        arguments: [
            ("file:///usr/share/pixmaps/debian-logo.png", "/usr/share/pixmaps/debian-logo.png"),
            ("file://localhost/usr/share/x.png", "/usr/share/x.png"), ("FILE://LocalHost/a%20b.png", "/a b.png"),
            ("file:///caf%C3%A9%2fx.png", "/café/x.png"), ("file:/no/host.png", "/no/host.png"), ("file:///", "/"),
            ("/plain/path.png", "/plain/path.png"), ("file-roller", "file-roller"), ("dialog-information", "dialog-information"),
            ("./file:/x.png", "./file:/x.png"), ("", ""),
        ])
    func paths(text: String, expected: String) throws {
        #expect(try FileURI.path(text) == expected)
    }

    @Test(
        "Another host's file, a bad escape, a NUL, bytes that are not UTF-8 or no absolute path are refused, saying which",
        arguments: [
            ("file://server/x.png", #"a file on host "server", not on this machine"#),
            ("file://192.168.1.2/x.png", #"a file on host "192.168.1.2", not on this machine"#),
            ("file://localhost", "not a file URI with an absolute path (file:///path)"),
            ("file:x.png", "not a file URI with an absolute path (file:///path)"),
            ("file:///a%2", "a % not followed by two hexadecimal digits"), ("file:///a%zz", "a % not followed by two hexadecimal digits"),
            ("file:///a%00b", "a NUL byte (%00) in the path"), ("file:///%FF.png", "a path that is not UTF-8"),
        ])
    func refusals(text: String, reason: String) {
        #expect(throws: FileURI.Refusal(reason: reason)) { try FileURI.path(text) }
    }
}

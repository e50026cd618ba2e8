import Testing

@testable import XToastCore

@Suite("Links")
struct LinkTests {
    /// The web and mail, written out in plain ASCII: nothing else is ever opened.
    @Test(
        "Which URLs a click may open",
        arguments: [
            ("https://example.com", true), ("http://example.com/a/b?c=1&d=2#e", true), ("HTTPS://EXAMPLE.COM", true),
            ("mailto:someone@example.com", true), ("mailto:a@b.c?subject=Hi%20there&body=x%0Ay", true),
            ("https://[2001:db8::1]:8443/", true), ("https://user@example.com/~me/(x)*+,;=!$", true),
            ("https://de.wikipedia.org/wiki/Gr%C3%B6%C3%9Fe", true),
            // Other schemes: files, scripts, an application's own, the opener's own tricks.
            ("file:///etc/passwd", false), ("javascript:alert(1)", false), ("data:text/html,x", false), ("ftp://example.com", false),
            ("vscode://file/etc/passwd", false), ("steam://run/1", false), ("smb://host/share", false), ("x-scheme-handler:x", false),
            ("mailto:", false), ("https:", false), ("https:example.com", false), ("https:///etc/passwd", false), ("https://", false),
            ("https://?q", false), ("https://#f", false), ("//example.com", false), ("example.com", false), ("", false),
            ("-https://example.com", false), ("--help", false), ("https", false),
            // What a shell, the opener or a terminal could read as more than a word.
            ("https://example.com/a b", false), ("https://example.com/\"x\"", false), ("https://example.com/'x'", false),
            ("https://example.com/`id`", false), ("https://example.com/a\\b", false), ("https://example.com/<x>", false),
            ("https://example.com/{a}|^", false), ("https://example.com/\n", false), ("https://example.com/\r", false),
            ("https://example.com/\t", false), ("https://example.com/\u{0}", false), ("https://example.com/\u{7F}", false),
            ("https://example.com/\u{1B}[31m", false),
            // Non-ASCII: look-alike letters, bidi controls, invisible characters.
            ("https://exаmple.com", false), ("https://example.com/\u{202E}gpj.exe", false), ("https://exa\u{200B}mple.com", false),
            ("https://例え.jp", false),
            // Percent escapes must be whole.
            ("https://example.com/%", false), ("https://example.com/%4", false), ("https://example.com/%zz", false),
        ])
    func openable(url: String, allowed: Bool) {
        #expect((Link.openable(url) != nil) == allowed, "\(url.debugDescription)")
        if allowed { #expect(Link.openable(url) == url) }
    }

    @Test("A URL is at most a thousand characters")
    func bounded() {
        let prefix = "https://example.com/"
        #expect(Link.openable(prefix + String(repeating: "a", count: Link.lengthLimit - prefix.count)) != nil)
        #expect(Link.openable(prefix + String(repeating: "a", count: Link.lengthLimit - prefix.count + 1)) == nil)
        #expect(Link.openable(prefix + String(repeating: "a", count: 1_000_000)) == nil)
    }

    @Test("The opener is the desktop's, given the URL as one argument, and nothing when it may not open")
    func command() {
        #expect(Link.command(opening: "https://example.com/?a=1&b=2") == ["xdg-open", "https://example.com/?a=1&b=2"])
        #expect(Link.command(opening: "file:///etc/passwd") == nil)
    }
}

@Suite("Linked markup")
struct LinkedMarkupTests {
    static let u = "<span underline=\"single\">\u{E000}"
    static let e = "\u{E001}</span>"

    @Test(
        "Each openable link becomes an underlined span around its marked text; any other keeps its text",
        arguments: [
            ("plain <b>text</b>", "plain <b>text</b>", []),
            ("see <a href=\"https://x.org/a\">this</a>.", "see \(u)this\(e).", ["https://x.org/a"]),
            (
                "<a href='mailto:a@b.c'>mail</a> and <a href=\"http://h/?a=1&amp;b=2\">web</a>",
                "\(u)mail\(e) and \(u)web\(e)", ["mailto:a@b.c", "http://h/?a=1&b=2"]
            ),
            ("<a  href=\"https://x.org\" title=\"a > b\" >t</a >", "\(u)t\(e)", ["https://x.org"]),
            ("<b><a href=\"https://x.org\">bold</a></b>", "<b>\(u)bold\(e)</b>", ["https://x.org"]),
            ("<a href=\"file:///etc/passwd\">file</a>", "<span>file</span>", []),
            ("<a href=\"javascript:alert(1)\">js</a>", "<span>js</span>", []),
            ("<a>no href</a>", "<span>no href</span>", []),
            (
                "<a href=\"https://x.org\">out <a href=\"https://y.org\">in</a> out</a>",
                "\(u)out <span>in</span> out\(e)", ["https://x.org"]
            ),
            ("stray</a>", "stray</a>", []),
            ("<abbr>x</abbr> <alpha>", "<abbr>x</abbr> <alpha>", []),
            ("\u{E000}fake\u{E001}", "fake", []),
            ("<a href=\"https://x.org\"", "<a href=\"https://x.org\"", []),
        ] as [(String, String, [String])])
    func links(markup: String, expected: String, urls: [String]) {
        let linked = LinkedMarkup(markup)
        #expect(linked.markup == expected)
        #expect(linked.links == urls)
    }

    @Test("An unclosed tag far from its end is no link, and the work is bounded")
    func bounded() {
        let long = "<a href=\"https://x.org/" + String(repeating: "a", count: 100_000)
        #expect(LinkedMarkup(long).links.isEmpty)
        #expect(LinkedMarkup(String(repeating: "<a ", count: 2000)).links.isEmpty)
    }
}

// swift-tools-version: 6.0
import PackageDescription

// Who imports whom is the architecture:
//   XToastCore   — the standard library only (geometry, style, timing, text rules)
//   XToastSystem — the platform: errno, descriptors and pipes, child processes and their wait
//                  statuses, the environment, the clocks, reading files (CSystem's few C helpers)
//   XToastRender — XToastCore + XToastSystem + CCairo (draws into any Cairo surface; no X)
//   XToastX11    — XToastCore + XToastRender + CX11 (the only module that talks to X)
//   XToastService — XToastCore + XToastX11 + CGio (the notification service, GDBus; only
//                  `xtoast --notification-service` calls into it)
//   xtoast       — everything: read the sources, wire, exit codes (and CStartup, a constructor
//                  that nothing imports)
// The program's modules leave out the implicitly imported `_StringProcessing` (Regex): nothing
// uses it, and with the runtime linked statically it was 2.2 MB of the binary.
let lean: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])]

let package = Package(
    name: "xtoast",
    products: [
        .executable(name: "xtoast", targets: ["xtoast"])
    ],
    // No package dependencies: the command line is read with XToastCore's option table, the
    // one definition per option that the config file, X resources, --help, the man page and
    // the completions share (and the binary starts without Foundation).
    targets: [
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11 xext xinerama xfixes xscrnsaver xrender cairo-xlib x11-xcb xcb-randr xcb-shape",
            providers: [
                .apt([
                    "libx11-dev", "libxext-dev", "libxinerama-dev", "libxfixes-dev", "libxss-dev", "libxrender-dev", "libcairo2-dev",
                    "libx11-xcb-dev", "libxcb-randr0-dev", "libxcb-shape0-dev",
                ])
            ]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo zlib",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // GIO for the notification service's D-Bus: already loaded with Pango, so no library more.
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CSystem"),
        // One constructor, no interface: the standard library's text cut into the pages a toast runs
        // and the rest before anything runs (split.c: 1 MB less resident).
        .target(name: "CStartup"),
        // The X tests' own: whether a compositor has redirected the screen yet.
        .systemLibrary(name: "CXComposite", path: "Tests/CXComposite", pkgConfig: "xcomposite", providers: [.apt(["libxcomposite-dev"])]),
        .target(name: "XToastCore", swiftSettings: lean),
        .target(name: "XToastSystem", dependencies: ["CSystem"], swiftSettings: lean),
        .target(name: "XToastRender", dependencies: ["XToastCore", "XToastSystem", "CCairo"], swiftSettings: lean),
        .target(name: "XToastX11", dependencies: ["XToastCore", "XToastSystem", "XToastRender", "CX11", "CCairo"], swiftSettings: lean),
        .target(
            name: "XToastService", dependencies: ["XToastCore", "XToastSystem", "XToastRender", "XToastX11", "CGio", "CX11", "CCairo"],
            swiftSettings: lean),
        .executableTarget(
            name: "xtoast",
            dependencies: ["XToastCore", "XToastSystem", "XToastRender", "XToastX11", "XToastService", "CStartup"],
            exclude: ["startup.order", "startup.ld"],  // the release link's function order (Makefile)
            swiftSettings: lean
        ),
        .testTarget(name: "XToastCoreTests", dependencies: ["XToastCore"]),
        .testTarget(name: "XToastSystemTests", dependencies: ["XToastSystem"]),
        .testTarget(name: "XToastRenderTests", dependencies: ["XToastRender", "XToastSystem", "CCairo"]),
        .testTarget(name: "XToastX11Tests", dependencies: ["XToastCore", "XToastSystem", "XToastX11", "CX11", "CXComposite", "CCairo"]),
        // The command's checks, called in-process (`XToastCommand(arguments:)`).
        .testTarget(name: "xtoastTests", dependencies: ["xtoast", "XToastCore"]),
    ]
)

import Foundation
import Testing

/// `make deb`'s packages, installed by the real dpkg into a scratch root (never into this
/// machine, whose notify-send other tests run meanwhile) and removed again.
extension Installation {
    @Suite struct DebianPackage {
        /// dpkg wants root for the ownership it records; fakeroot gives it that for a user.
        func dpkg(_ root: String, _ arguments: [String]) throws {
            // No libraries in the scratch root: their presence is checked against this machine
            // below. The notify-send package's scripts run here, with dpkg-divert told the root.
            let dpkg = ["dpkg", "--root=\(root)", "--log=/dev/null", "--force-depends", "--force-script-chrootless"] + arguments
            _ = try runTool(getuid() == 0 ? dpkg[0] : "fakeroot", Array(getuid() == 0 ? dpkg.dropFirst() : dpkg[...]))
        }

        func field(_ deb: String, _ name: String) throws -> String {
            try runTool("dpkg-deb", ["--field", deb, name]).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// A stand-in for libnotify-bin (its name and its /usr/bin/notify-send), so that the
        /// diversion is tested against a package that owns the file, as on a desktop.
        func libnotifyStandIn(in folder: String) throws -> String {
            let tree = folder + "/libnotify-bin"
            try FileManager.default.createDirectory(atPath: tree + "/DEBIAN", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: tree + "/usr/bin", withIntermediateDirectories: true)
            try "#!/bin/sh\necho libnotify\n".write(toFile: tree + "/usr/bin/notify-send", atomically: true, encoding: .utf8)
            chmod(tree + "/usr/bin/notify-send", 0o755)
            let control =
                "Package: libnotify-bin\nVersion: 0.8.1-1\nArchitecture: all\nMaintainer: test <test@example.org>\nDescription: stand-in\n"
            try control.write(toFile: tree + "/DEBIAN/control", atomically: true, encoding: .utf8)
            try runTool("dpkg-deb", ["--root-owner-group", "--build", tree, folder + "/libnotify-bin.deb"])
            return folder + "/libnotify-bin.deb"
        }

        @Test func makeDebBuildsPackagesThatInstallRunAndRemoveCleanly() throws {
            let installation = Installation()
            let release = try installation.releaseBinary()
            let folder = temporaryPath("-deb")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // What `make deb` runs after the release build (which `make test` has done).
            try runTool(installation.packageRoot().appendingPathComponent("Packaging/make-deb").path, [folder])

            let version = try runTool(release, ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(version.hasPrefix("xtoast "))
            let number = String(version.dropFirst("xtoast ".count))
            let architecture = try runTool("dpkg", ["--print-architecture"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let program = "\(folder)/xtoast_\(number)_\(architecture).deb"
            let link = "\(folder)/xtoast-notify-send_\(number)_all.deb"
            let service = "\(folder)/xtoast-notification-service_\(number)_all.deb"
            #expect(try field(program, "Version") == number)
            #expect(try field(program, "Architecture") == architecture)
            #expect(try field(link, "Depends") == "xtoast (>= \(number))")
            #expect(try field(service, "Depends") == "xtoast (>= \(number))")

            // Every file root's, and lintian finds no error or warning (the remaining
            // informational tags are explained in docs/install.md).
            for deb in [program, link, service] {
                let listing = try runTool("dpkg-deb", ["--contents", deb]).split(separator: "\n")
                #expect(listing.allSatisfy { $0.contains(" root/root ") }, "\(deb): \(listing)")
            }
            let lint = try runTool("lintian", ["--fail-on", "error,warning", program, link, service])
            #expect(!lint.split(separator: "\n").contains { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }, "\(lint)")

            let root = folder + "/root"
            try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/info", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/updates", withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: root + "/var/lib/dpkg/status", contents: Data())
            try dpkg(root, ["--install", try libnotifyStandIn(in: folder)])
            try dpkg(root, ["--install", program, link])

            // The installed program runs, and man finds its page by name (compressed, in the
            // root's man hierarchy; man-db searches the folders when its index lacks a page).
            let installed = root + "/usr/bin/xtoast"
            #expect(try runTool(installed, ["--version"]) == version + "\n")
            let manual = try runTool("env", ["MANPATH=\(root)/usr/share/man", "man", "-P", "cat", "xtoast"])
            #expect(manual.contains("EXIT STATUS") && manual.contains("--duration"), "\(manual.prefix(300))")
            #expect(FileManager.default.fileExists(atPath: root + "/usr/share/doc/xtoast/copyright"))
            #expect(FileManager.default.fileExists(atPath: root + "/usr/share/zsh/vendor-completions/_xtoast"))

            // notify-send is xtoast while the link package is there; libnotify's is kept aside.
            let notifySend = root + "/usr/bin/notify-send"
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: notifySend)) == "xtoast")
            #expect(try runTool(root + "/usr/bin/notify-send.libnotify", []) == "libnotify\n")
            try dpkg(root, ["--purge", "xtoast-notify-send"])
            #expect(try runTool(notifySend, []) == "libnotify\n")
            #expect(!FileManager.default.fileExists(atPath: root + "/usr/bin/notify-send.libnotify"))
            #expect(try runTool("dpkg-divert", ["--root=\(root)", "--list"]).isEmpty)

            // The bus starts the installed xtoast for applications' notifications.
            let unpacked = folder + "/service"
            try runTool("dpkg-deb", ["-x", service, unpacked])
            let serviceFile = unpacked + "/usr/share/dbus-1/services/xtoast.org.freedesktop.Notifications.service"
            let activation = (try? String(contentsOfFile: serviceFile, encoding: .utf8)) ?? ""
            #expect(activation.contains("Name=org.freedesktop.Notifications\nExec=/usr/bin/xtoast --notification-service\n"))

            // The package's Depends name every library the binary loads, by the package that
            // holds that library here (Debian's own).
            let depends = try field(program, "Depends").split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != " " })
            }
            let needed = try runTool("objdump", ["-p", installed]).split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                return words.first == "NEEDED" && words.count == 2 ? String(words[1]) : nil
            }
            #expect(needed.count > 10)
            let owners = try runTool("dpkg", ["--search"] + needed.map { "*/\($0)" }).split(separator: "\n")
            for library in needed {
                let packages = owners.filter { $0.hasSuffix("/" + library) }.flatMap {
                    $0.prefix { $0 != "/" }.dropLast(2).split(separator: ",").map {
                        String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" })
                    }
                }
                #expect(packages.contains { depends.contains($0) }, "\(library) is in \(packages), none of them in Depends: \(depends)")
            }
            #expect(depends.contains("fonts-dejavu-core"))

            // Purged, nothing is left but dpkg's own database.
            try dpkg(root, ["--purge", "xtoast", "libnotify-bin"])
            let left = try FileManager.default.contentsOfDirectory(atPath: root)
            #expect(left == ["var"], "left in the root: \(left)")
            let database = try FileManager.default.subpathsOfDirectory(atPath: root + "/var")
            #expect(database.allSatisfy { $0 == "lib" || $0.hasPrefix("lib/dpkg") }, "left in var: \(database)")
        }
    }
}

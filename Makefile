# xtoast — the two commands of the README are `make` and `make test`.
PREFIX ?= /usr/local
SWIFT_FLAGS ?=
# The Swift runtime is linked in; so is the C++ runtime it needs (see static-c++): 1 MB less
# resident memory and 0.4 ms less start-up than loading libstdc++.so.6; and its unwinder
# (libgcc_eh, not libgcc_s.so.1: 0.1 MB, one library fewer to load). No $$ORIGIN run path
# (a dozen failed opens for every library at start), and no exported symbols but the one
# cairo must find (XShmQueryExtension, see SharedMemory.swift).
STATIC_CXX = .build/static-c++
RELEASE_FLAGS = -c release -Xswiftc -static-stdlib -Xlinker -L$(CURDIR)/$(STATIC_CXX) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
  --disable-local-rpath \
  -Xlinker --no-export-dynamic $(LLD_FLAGS)
# With the toolchain's lld: the functions a toast runs laid out together (each function in a
# section of its own, placed by startup.order, made by `make startup-order`; those it cannot
# name gathered by startup.ld), and relative relocations packed (DT_RELR, glibc 2.36 and later)
# instead of 580 KB of them read at every start: 2.3 MB less resident memory in all.
TOOLCHAIN_BIN := $(shell swift -print-target-info 2>/dev/null | sed -n 's|.*"runtimeResourcePath": "\(.*\)/lib/swift".*|\1/bin|p')
LLD := $(firstword $(wildcard $(TOOLCHAIN_BIN)/ld.lld) $(shell command -v ld.lld 2>/dev/null))
RELR := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ split($$2, v, "."); if (v[1] > 2 || v[2] >= 36) print "yes" }')
LLD_FLAGS = $(if $(LLD),-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld \
  -Xlinker --symbol-ordering-file=$(CURDIR)/Sources/xtoast/startup.order -Xlinker -T -Xlinker $(CURDIR)/Sources/xtoast/startup.ld \
  -Xlinker --no-warn-symbol-ordering $(if $(RELR),-Xlinker -z -Xlinker pack-relative-relocs))
DEMO_PNG ?= xtoast-demo.png

.PHONY: show build release static-c++ test bench startup-order format docs clean install install-files uninstall deb pictures

BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
DOCDIR = $(DESTDIR)$(PREFIX)/share/doc/xtoast
DBUSDIR = $(DESTDIR)$(PREFIX)/share/dbus-1/services
# Named apart from other daemons' files: several may claim org.freedesktop.Notifications.
DBUS_SERVICE = xtoast.org.freedesktop.Notifications.service

# Install what is missing, build in release mode and show a toast (or draw it into a PNG when
# there is no display to show it on).
show: release
	@if [ -n "$$DISPLAY" ] && .build/release/xtoast "Tagged"; then :; \
	else .build/release/xtoast --render-png $(DEMO_PNG) "Tagged" && \
	  echo "xtoast: no usable X display here; drew the toast into $(DEMO_PNG) instead"; fi

release:
	@.ci/install-deps build
	@$(MAKE) --no-print-directory static-c++
	@# SwiftPM does not see the order file: a newer one means linking again.
	@for f in Sources/xtoast/startup.order Sources/xtoast/startup.ld; do \
	  if [ $$f -nt .build/release/xtoast ]; then rm -f .build/release/xtoast; fi; done
	swift build $(RELEASE_FLAGS) $(SWIFT_FLAGS)

# swiftc asks for -lstdc++; a linker script of that name in a folder searched first points the
# linker at the static archive instead. Without the archive the folder stays empty and the
# shared library is used.
static-c++:
	@mkdir -p $(STATIC_CXX) && archive=$$(cc -print-file-name=libstdc++.a) && \
	  if [ -f "$$archive" ]; then echo "INPUT($$archive)" > $(STATIC_CXX)/libstdc++.so; fi

build:
	@.ci/install-deps build
	swift build $(SWIFT_FLAGS)

# The whole suite: formatting, unit tests and the real thing under Xvfb + picom. The release
# build is there for the install test, which is told what the link above could do.
test: export XTOAST_RELEASE_LINK = static$(if $(LLD), ordered$(if $(RELR), packed))
test:
	@.ci/install-deps test
	swift format lint --strict --recursive Sources Tests Package.swift
	@$(MAKE) --no-print-directory static-c++
	swift build $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	swift build --build-tests $(SWIFT_FLAGS)
	.ci/with-x swift test --skip-build $(SWIFT_FLAGS)

# `make install` / `make uninstall`, with PREFIX (/usr/local) and DESTDIR. The binary has the
# Swift runtime linked in; the man page and completions are made by the binary itself from its
# option table.
install: release install-files

install-files:
	install -D -m 755 .build/release/xtoast $(BINDIR)/xtoast
	@# NOTIFY_SEND=1: a notify-send link, for scripts written for libnotify's (no daemon needed).
	if [ -n "$(NOTIFY_SEND)" ]; then ln -sf xtoast $(BINDIR)/notify-send; fi
	@# NOTIFICATION_SERVICE=1: the session bus starts `xtoast --notification-service` for
	@# applications' notifications (org.freedesktop.Notifications).
	if [ -n "$(NOTIFICATION_SERVICE)" ]; then mkdir -p $(DBUSDIR) && \
	  sed 's|/usr/bin/xtoast|$(PREFIX)/bin/xtoast|' Packaging/org.freedesktop.Notifications.service > $(DBUSDIR)/$(DBUS_SERVICE); fi
	mkdir -p $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(DOCDIR)
	.build/release/xtoast --generate-manual > $(MANDIR)/xtoast.1
	.build/release/xtoast --generate-completion bash > $(BASHDIR)/xtoast
	.build/release/xtoast --generate-completion zsh > $(ZSHDIR)/_xtoast
	.build/release/xtoast --generate-completion fish > $(FISHDIR)/xtoast.fish
	install -m 644 Resources/config.example $(DOCDIR)/config.example
	install -m 644 README.md $(DOCDIR)/README.md
	install -D -m 644 -t $(DOCDIR)/docs docs/*.md

uninstall:
	if [ "$$(readlink $(BINDIR)/notify-send)" = xtoast ]; then rm -f $(BINDIR)/notify-send; fi
	rm -f $(DBUSDIR)/$(DBUS_SERVICE)
	rm -f $(BINDIR)/xtoast $(MANDIR)/xtoast.1 $(BASHDIR)/xtoast $(ZSHDIR)/_xtoast $(FISHDIR)/xtoast.fish
	rm -f $(DOCDIR)/config.example $(DOCDIR)/README.md $(DOCDIR)/docs/*.md
	-rmdir $(DOCDIR)/docs 2>/dev/null
	-rmdir $(DOCDIR) 2>/dev/null

# Debian packages of the release build, in this folder: xtoast_VERSION_ARCH.deb,
# xtoast-notify-send_VERSION_all.deb (the notify-send name through a dpkg diversion) and
# xtoast-notification-service_VERSION_all.deb (the D-Bus service file). See
# Packaging/make-deb and docs/install.md.
deb: release
	@.ci/install-deps deb
	Packaging/make-deb

# The README's pictures, drawn by xtoast itself (the gallery is put together by ImageMagick).
pictures: build
	.build/debug/xtoast --render-png Resources/toast.png --scale 2 "Tagged"
	.build/debug/xtoast --render-png Resources/alert.png --scale 2 --preset alert "Saved to Downloads"
	.build/debug/xtoast --render-png Resources/hud.png --scale 2 --preset hud "Tagged"
	.build/debug/xtoast --render-png Resources/toast-icon.png --scale 2 --icon success --title "Build finished" "All 241 tests passed"
	.build/debug/xtoast --render-png Resources/toast-progress.png --scale 2 --icon info --progress 40 "Volume"
	.build/debug/xtoast --render-png Resources/toast-muted.png --scale 2 --icon warning --progress '40!' "Muted"
	.build/debug/xtoast --render-png Resources/toast-error.png --scale 2 --icon error --background '#b00020e6' "Build failed"
	.build/debug/xtoast --render-png Resources/toast-spinner.png --scale 2 --spinner "Backing up…"
	.build/debug/xtoast --render-png Resources/toast-custom.png --scale 2 --background '#1e1e2ee6' --foreground '#cdd6f4' \
	  --font 'Sans Bold 15' --radius 10 --padding 14 "Custom colours, font and radius"
	.build/debug/xtoast --render-png Resources/toast-scripts.png --scale 2 "Привет · مرحبا · שלום · Ελληνικά"
	.build/debug/xtoast --render-png Resources/toast-markup.png --scale 2 --markup "<b>Markup</b> if you ask: <i>italic</i>, <span foreground='#ffcc00'>colour</span>"
	.build/debug/xtoast --render-png Resources/toast-wrapped.png --scale 2 --max-width 360 \
	  "Backup finished: 1,204 files copied to /mnt/backup in 3 min 12 s. Nothing was skipped."
	.build/debug/xtoast --render-png Resources/toast-buttons.png --scale 2 --preset critical --icon warning --title "Battery low" \
	  --button Suspend --button Later "5% left"
	.build/debug/xtoast --render-png Resources/toast-svg.png --scale 2 --icon audio-volume-high-symbolic --progress 55 "Volume"
	montage -background '#3060a0' -geometry +20+20 -tile 2x Resources/toast.png Resources/alert.png Resources/hud.png \
	  Resources/toast-icon.png Resources/toast-progress.png Resources/toast-muted.png Resources/toast-error.png \
	  Resources/toast-spinner.png Resources/toast-custom.png Resources/toast-scripts.png Resources/toast-markup.png \
	  Resources/toast-wrapped.png Resources/toast-buttons.png Resources/toast-svg.png Resources/gallery.png

# Side by side with the C floors, osd_cat and notify-send + dunst (RUNS=20 by default); then
# applications' notifications through the service and through dunst.
# The Swift floor (.ci/bench/floor-swift.swift) is linked as the release build is, but for the
# order file, which names xtoast's functions, and the standard library cut apart (CStartup).
bench: export BENCH_SWIFT_LINK = -static-stdlib -L$(CURDIR)/$(STATIC_CXX) -Xclang-linker -static-libgcc -Xlinker --no-export-dynamic \
  $(if $(LLD),-use-ld=lld $(if $(RELR),-Xlinker -z -Xlinker pack-relative-relocs))
bench: release
	@.ci/install-deps bench
	python3 .ci/bench/bench.py
	@# Applications' notifications: Notify → first paint through the service and through dunst, and a
	@# burst of one application's until no notification window is left on the screen.
	python3 .ci/bench/notifications.py

# Writes Sources/xtoast/startup.order from callgrind runs of the release build and links again.
startup-order: release
	@.ci/install-deps bench
	.ci/startup-order
	@$(MAKE) --no-print-directory release

format:
	swift format --in-place --recursive Sources Tests Package.swift

# docs/options.md, made by the binary from its option table (a test says when it is stale).
docs: build
	.build/debug/xtoast --generate-markdown > docs/options.md

clean:
	rm -rf .build $(DEMO_PNG) xtoast_*.deb xtoast-notify-send_*.deb xtoast-notification-service_*.deb

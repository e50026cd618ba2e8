# xtoast — the two commands of the README are `make` and `make test`.
PREFIX ?= /usr/local
SWIFT_FLAGS ?=
RELEASE_FLAGS = -c release -Xswiftc -static-stdlib
DEMO_PNG ?= xtoast-demo.png

.PHONY: show build release test unit format lint clean

# Install what is missing, build in release mode and show a toast (or draw it into a PNG when
# there is no display to show it on).
show: release
	@if [ -n "$$DISPLAY" ] && .build/release/xtoast "Tagged"; then :; \
	else .build/release/xtoast --render-png $(DEMO_PNG) "Tagged" && \
	  echo "xtoast: no usable X display here; drew the toast into $(DEMO_PNG) instead"; fi

release:
	@.ci/install-deps build
	swift build $(RELEASE_FLAGS) $(SWIFT_FLAGS)

build:
	@.ci/install-deps build
	swift build $(SWIFT_FLAGS)

# The whole suite: formatting, unit tests and the real thing under Xvfb + picom.
test:
	@.ci/install-deps test
	swift format lint --strict --recursive Sources Tests Package.swift
	swift build --build-tests $(SWIFT_FLAGS)
	.ci/with-x swift test --skip-build $(SWIFT_FLAGS)

format:
	swift format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build $(DEMO_PNG)

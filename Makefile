# dfu: build, demo and test. Every target sets up what it needs on a fresh Debian 12 machine
# (as root, or through sudo): `make demo` and `make test` are all a new checkout needs.
#
#   make deps    install the Debian packages the build needs, only those missing
#   make build   swift build (debug) -> .build/debug/dfu
#   make demo    build, then `dfu flash` a sample image onto the virtual device; `dfu verify` every sample
#   make test    build, swift test (unit + end-to-end), the imgtool, smpclient (UDP and serial) and nrfutil cross-checks,
#                a short fault campaign (dfu-faults --runs 4), then every fuzz target for a few seconds
#   make fuzz [SECONDS=60]   libFuzzer on every parser, SECONDS per target (docs/faults.md, "Fuzzing")
#   make test-bluez DFU_BLUEZ_RIG=path/to/run.sh   dfu against the real bluetoothd in the BlueZ rig
#   make install [PREFIX=/usr/local] [DESTDIR=...]   a release dfu, its man page, bash and zsh completions
#   make uninstall [PREFIX=...] [DESTDIR=...]        removes exactly those files

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

SWIFT ?= swift
DFU := .build/debug/dfu
# libdbus-1-dev, libssl-dev, libzip-dev, liblzma-dev, pkg-config: headers and .pc files for the CDBus, COpenSSL,
# CZip and CLZMA module maps (liblzma: compressed MCUboot images). dbus-daemon: the private bus the BlueZ end-to-end tests start. openssl: the command the
# virtual Nordic bootloader's tests sign their own init packets with.
DEB_PACKAGES := libdbus-1-dev libssl-dev libzip-dev liblzma-dev pkg-config dbus-daemon openssl
SAMPLES := firmware-samples
CROSSCHECK := scripts/imgtool-crosscheck.sh
LOGS := .build/make-logs
# make test's short fault campaign (docs/faults.md): --runs for the debug dfu-faults, every scenario and link.
TEST_FAULTS_RUNS ?= 4

.PHONY: deps build demo test test-bluez bench faults fuzz release install uninstall

deps:
	@missing=""; \
	for package in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q "install ok installed" \
	        || missing="$$missing $$package"; \
	done; \
	if [[ -z "$$missing" ]]; then \
	    echo "deps: all present ($(DEB_PACKAGES))"; \
	else \
	    if [[ "$$(id -u)" -eq 0 ]]; then sudo=""; \
	    elif command -v sudo > /dev/null; then sudo="sudo"; \
	    else echo "deps: missing$$missing; run 'make deps' as root or install sudo" >&2; exit 1; fi; \
	    echo "deps: installing$$missing"; \
	    $$sudo apt-get update -q; \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi; \
	command -v $(SWIFT) > /dev/null \
	    || { echo "deps: no '$(SWIFT)' on PATH; dfu needs a Swift 6 toolchain (swift.org)" >&2; exit 1; }

build: deps
	$(SWIFT) build

# A firmware update on the built-in virtual device, in real time, as a user sees it: image check,
# connection (MTU, PHY, interval, window), battery, upload with rate and share of the link's ceiling,
# test, reboot (MCUboot's swap takes a few seconds), version check, confirm. Then one line for
# `dfu verify` over every sample: each image with the key firmware-samples/expected.tsv lists for
# it, each broken sample (which must be refused, exit 3); one for the rows of imgtool-divergent.tsv,
# each held to MCUboot's verdict (encrypted images with their signing key and another); then one for
# the Nordic DFU packages, each held to the verdict firmware-samples/nordic-expected.tsv gives it,
# and one for the nRF Connect SDK zips, held to firmware-samples/ncs-expected.tsv.
DEMO_IMAGE := $(SAMPLES)/images/blinky-ecdsa-p256-1.1.0.signed.bin
DEMO_KEY := $(SAMPLES)/keys/TEST-ONLY-ecdsa-p256.pub.pem
demo: build
	$(DFU) flash $(DEMO_IMAGE) --device sim --key $(DEMO_KEY)
	@verified=0; refused=0; wrong=""; \
	for image in $(SAMPLES)/images/*.bin; do \
	    name="$$(basename "$$image")"; \
	    key="$$(awk -F '\t' -v f="images/$$name" '$$1 == f && $$2 != "-" && $$3 == "OK" { print $$2; exit }' $(SAMPLES)/expected.tsv)"; \
	    if [[ -n "$$key" ]]; then args=(--key "$(SAMPLES)/$$key"); else args=(); fi; \
	    if $(DFU) verify "$$image" "$${args[@]}" > /dev/null 2>&1; then verified=$$((verified + 1)); \
	    else wrong="$$wrong $$name"; fi; \
	done; \
	for image in $(SAMPLES)/broken/*.bin; do \
	    if $(DFU) verify "$$image" --key $(DEMO_KEY) > /dev/null 2>&1; then status=0; else status=$$?; fi; \
	    if [[ $$status -eq 3 ]]; then refused=$$((refused + 1)); else wrong="$$wrong $$(basename "$$image")"; fi; \
	done; \
	echo; \
	if [[ -z "$$wrong" ]]; then echo "demo: dfu verify: $$verified sample images verified, $$refused broken samples refused"; \
	else echo "demo: dfu verify gave the wrong verdict for:$$wrong" >&2; exit 1; fi
	@accepted=0; refused=0; wrong=""; \
	while IFS=$$'\t' read -r file key imgtool verdict why; do \
	    args=(verify "$(SAMPLES)/$$file"); \
	    if [[ "$$key" != - ]]; then args+=(--key "$(SAMPLES)/$$key"); fi; \
	    if $(DFU) "$${args[@]}" > /dev/null 2>&1; then status=0; else status=$$?; fi; \
	    if [[ $$verdict == OK && $$status -eq 0 ]]; then accepted=$$((accepted + 1)); \
	    elif [[ $$verdict == REJECT && $$status -eq 3 ]]; then refused=$$((refused + 1)); \
	    else wrong="$$wrong $$file($$key)"; fi; \
	done < $(SAMPLES)/imgtool-divergent.tsv; \
	if [[ -z "$$wrong" ]]; then echo "demo: dfu verify: $$accepted accepted, $$refused refused where MCUboot and imgtool differ (imgtool-divergent.tsv)"; \
	else echo "demo: dfu verify gave the wrong verdict where MCUboot and imgtool differ:$$wrong" >&2; exit 1; fi
	@accepted=0; refused=0; wrong=""; \
	while IFS=$$'\t' read -r file key flags verdict problem; do \
	    args=(verify "$(SAMPLES)/$$file"); \
	    if [[ "$$key" != - ]]; then args+=(--key "$(SAMPLES)/$$key"); fi; \
	    if [[ "$$flags" != - ]]; then args+=("$$flags"); fi; \
	    if $(DFU) "$${args[@]}" > /dev/null 2>&1; then status=0; else status=$$?; fi; \
	    if [[ $$verdict == OK && $$status -eq 0 ]]; then accepted=$$((accepted + 1)); \
	    elif [[ $$verdict == REFUSED && $$status -eq 3 ]]; then refused=$$((refused + 1)); \
	    else wrong="$$wrong $$file($$key)"; fi; \
	done < $(SAMPLES)/nordic-expected.tsv; \
	if [[ -z "$$wrong" ]]; then echo "demo: dfu verify: $$accepted Nordic package checks passed, $$refused refused as nordic-expected.tsv says"; \
	else echo "demo: dfu verify gave the wrong verdict for Nordic packages:$$wrong" >&2; exit 1; fi
	@accepted=0; refused=0; wrong=""; \
	while IFS=$$'\t' read -r file key verdict problem; do \
	    args=(verify "$(SAMPLES)/$$file"); \
	    if [[ "$$key" != - ]]; then args+=(--key "$(SAMPLES)/$$key"); fi; \
	    if $(DFU) "$${args[@]}" > /dev/null 2>&1; then status=0; else status=$$?; fi; \
	    if [[ $$verdict == OK && $$status -eq 0 ]]; then accepted=$$((accepted + 1)); \
	    elif [[ $$verdict == REFUSED && $$status -eq 3 ]]; then refused=$$((refused + 1)); \
	    else wrong="$$wrong $$file($$key)"; fi; \
	done < $(SAMPLES)/ncs-expected.tsv; \
	if [[ -z "$$wrong" ]]; then echo "demo: dfu verify: $$accepted nRF Connect SDK zip checks passed, $$refused refused as ncs-expected.tsv says"; \
	else echo "demo: dfu verify gave the wrong verdict for nRF Connect SDK zips:$$wrong" >&2; exit 1; fi

# The last line says what ran and how it ended: swift test's summaries, then each cross-check's. Each
# step's full output stays above it and in $(LOGS). swift test runs three times on one build: the
# end-to-end tests (DFUCLITests) wait for dfu child processes synchronously, each holding one of
# the cooperative pool's threads (one per core), so beside the timing-sensitive tests they starved
# them; their BlueZ suites (async, timing-sensitive) run apart from the rest of them. Within the
# batch a test can still wait minutes for a thread on a loaded machine, which their time limit
# (`.endToEnd`, 5 minutes) allows for. The fault
# campaign's process-death runs (ProcessDeathRunTests) serve their device models in this process
# (the cooperative pool) while dfu children and private buses start: beside the engine's tests
# they starved those, beside the other end-to-end tests they starve, so they run on their own.
test: deps
	@mkdir -p $(LOGS)
	$(SWIFT) build 2>&1 | tee $(LOGS)/build.log
	$(SWIFT) build --build-tests 2>&1 | tee -a $(LOGS)/build.log
	$(SWIFT) test --skip-build --skip 'DFUCLITests' --skip 'ProcessDeathRunTests' 2>&1 | tee $(LOGS)/test.log
	$(SWIFT) test --skip-build --filter 'DFUCLITests\.BlueZ' 2>&1 | tee $(LOGS)/test-cli-bluez.log
	$(SWIFT) test --skip-build --filter 'ProcessDeathRunTests' 2>&1 | tee $(LOGS)/test-process-deaths.log
	$(SWIFT) test --skip-build --filter 'DFUCLITests' --skip 'DFUCLITests\.BlueZ' 2>&1 | tee $(LOGS)/test-cli.log
	@if [[ -f $(CROSSCHECK) ]]; then \
	    bash $(CROSSCHECK) $(DFU) 2>&1 | tee $(LOGS)/crosscheck.log; \
	else \
	    echo "imgtool-crosscheck: not run ($(CROSSCHECK) absent)" | tee $(LOGS)/crosscheck.log; \
	fi
	bash scripts/smpclient-crosscheck.sh $(DFU) 2>&1 | tee $(LOGS)/smpclient-crosscheck.log
	bash scripts/smpclient-serial-crosscheck.sh $(DFU) 2>&1 | tee $(LOGS)/smpclient-serial-crosscheck.log
	bash scripts/nrfutil-crosscheck.sh $(DFU) 2>&1 | tee $(LOGS)/nrfutil-crosscheck.log
	.build/debug/dfu-faults --runs $(TEST_FAULTS_RUNS) 2>&1 | tee $(LOGS)/faults.log
	FUZZ_OPTIMIZATION=-Onone bash scripts/build-fuzzers.sh 2>&1 | tee $(LOGS)/fuzz.log
	FUZZ_OPTIMIZATION=-Onone bash scripts/run-fuzzers.sh $(TEST_FUZZ_SECONDS) 2>&1 | tee -a $(LOGS)/fuzz.log
	@swift_testing="$$(for log in test test-cli-bluez test-process-deaths test-cli; do { grep -E 'Test run with [0-9]+ tests?' $(LOGS)/$$log.log || true; } | tail -n 1 | sed -e 's/^[^T]*//' -e 's/\.$$//'; done | paste -sd ';' | sed 's/;/; /g')"; \
	xctest="$$({ grep -hE 'Executed [1-9][0-9]* tests?' $(LOGS)/test.log $(LOGS)/test-cli-bluez.log $(LOGS)/test-process-deaths.log $(LOGS)/test-cli.log || true; } | tail -n 1 | sed 's/^[[:space:]]*/; XCTest: /')"; \
	crosscheck="$$({ grep -E '^(SKIP: )?imgtool-crosscheck' $(LOGS)/crosscheck.log || true; } | tail -n 1)"; \
	smpclient="$$({ grep -E '^(SKIP: )?smpclient-crosscheck: ' $(LOGS)/smpclient-crosscheck.log || true; } | tail -n 1)"; \
	smpserial="$$({ grep -E '^(SKIP: )?smpclient-serial-crosscheck: ' $(LOGS)/smpclient-serial-crosscheck.log || true; } | tail -n 1)"; \
	nrfutil="$$({ grep -E '^(SKIP: )?nrfutil-crosscheck: ' $(LOGS)/nrfutil-crosscheck.log || true; } | tail -n 1)"; \
	faults="$$({ grep -E '^faults: ' $(LOGS)/faults.log || true; } | tail -n 1)"; \
	fuzz="$$({ grep -E '^fuzz: [0-9]+ targets' $(LOGS)/fuzz.log || true; } | tail -n 1)"; \
	echo "make test: PASSED. $${swift_testing:-no Swift Testing run}$$xctest; $${crosscheck:-imgtool-crosscheck: no summary}; $${smpclient:-smpclient-crosscheck: no summary}; $${smpserial:-smpclient-serial-crosscheck: no summary}; $${nrfutil:-nrfutil-crosscheck: no summary}; $${faults:-faults: no summary}; $${fuzz:-fuzz: no summary}"

# The fuzz targets of Fuzz/ (docs/faults.md, "Fuzzing"): the package's modules compiled by swiftc
# with libFuzzer and AddressSanitizer (a SwiftPM target cannot host libFuzzer), then each target for
# SECONDS from its seeds (Fuzz/corpus/), what earlier sessions' runs found and kept (Fuzz/grown/,
# scripts/keep-fuzz-corpus.sh) and what earlier runs here found (.build/fuzz/corpus/). One line
# per target (executions, coverage, crashes), then `fuzz: T targets, E executions, C crashes`; exits
# non-zero on a crash, whose input stays in .build/fuzz/artifacts/. The first build takes a few
# minutes (-O); later ones rebuild only changed modules. FUZZ_JOBS=2 runs two targets at a time;
# FUZZ_TARGETS='CBORDecoder SMPResponse' runs only those. `make test` runs every target for
# TEST_FUZZ_SECONDS, built -Onone (a third of the build time, Swift's debug checks on) in .build/fuzz-onone.
SECONDS ?= 60
TEST_FUZZ_SECONDS ?= 3
FUZZ_TARGETS ?=
fuzz: deps
	bash scripts/build-fuzzers.sh $(FUZZ_TARGETS)
	bash scripts/run-fuzzers.sh $(SECONDS) $(FUZZ_TARGETS)

# The BlueZ tier (docs/test-bluez.md): a static release build of dfu, then scenarios inside the
# BlueZ rig (../shared/rig: bluetoothd 5.66 and two virtual LE controllers in a VM; run.sh boots
# it): dfu sim serves the virtual device on controller A, and dfu scan, info and flash reach it
# from controller B. One boot for all the scenarios, one with EATT for a whole update; a boot that
# ends 125 (the rig failed) is tried again, twice at most. The last line sums up the scenarios.
# DFU_BLUEZ_RIG is required (exit 2 without it); TEST_BLUEZ_SCRATCH moves the build directory;
# TEST_BLUEZ_ONLY=scan,flash runs only those scenarios in the first boot.
DFU_BLUEZ_RIG ?=
TEST_BLUEZ_SCRATCH ?= .build
test-bluez: deps
	DFU_BLUEZ_RIG="$(DFU_BLUEZ_RIG)" TEST_BLUEZ_SCRATCH="$(TEST_BLUEZ_SCRATCH)" SWIFT="$(SWIFT)" bash scripts/test-bluez.sh

# The transfer benchmark (docs/performance.md): a release build of dfu-bench, then the table of
# goodput against the modelled ceiling per link profile, the fleet (8 devices sharing one modelled
# adapter, aggregate goodput against its capacity) and the batch (the release dfu runs `dfu batch`
# over 100 sim devices; dfu-bench finds it next to itself, so it is built here too), then the serial
# part (SMP over pseudo-terminals paced at the baud rate; 8 of them flashed at once by `dfu batch`;
# smpmgr timed beside dfu when it is installed: on PATH, in $SMPMGR, or BENCH_ARGS='--smpmgr PATH';
# without it the row says so and nothing fails). It runs the link model in real time, so it takes a
# few minutes. Options through BENCH_ARGS, e.g.
# make bench BENCH_ARGS='--runs 5 --json', or only the new parts: BENCH_ARGS='--fleet --batch';
# BENCH_SCRATCH moves the build directory (swift build --scratch-path).
BENCH_ARGS ?=
BENCH_SCRATCH ?= .build
bench: deps
	$(SWIFT) build -c release --scratch-path $(BENCH_SCRATCH) --product dfu-bench
	$(SWIFT) build -c release --scratch-path $(BENCH_SCRATCH) --product dfu
	"$$($(SWIFT) build -c release --scratch-path $(BENCH_SCRATCH) --show-bin-path)/dfu-bench" $(BENCH_ARGS)

# The fault campaign (docs/faults.md): a release build of dfu-faults, then whole test-confirm
# updates of the virtual device under each injected fault scenario (SMP on the memory link, over UDP
# and over a serial pseudo-terminal; Nordic in memory; the dfu binary, also built, killed with SIGKILL
# mid-update and finished again), seeded runs, the model 20x faster than real
# time; invariants checked from the device model after every run; ends with the line
# 'faults: N runs, V invariant violations'. Exits non-zero if any run broke an invariant or ended in
# a way its scenario does not allow. Options through FAULTS_ARGS, e.g.
# make faults FAULTS_ARGS='--scenario corrupt --runs 50 --json' or '--link udp'; FAULTS_SCRATCH moves the build directory.
FAULTS_ARGS ?=
FAULTS_SCRATCH ?= .build
faults: deps
	$(SWIFT) build -c release --scratch-path $(FAULTS_SCRATCH) --product dfu-faults
	$(SWIFT) build -c release --scratch-path $(FAULTS_SCRATCH) --product dfu
	"$$($(SWIFT) build -c release --scratch-path $(FAULTS_SCRATCH) --show-bin-path)/dfu-faults" $(FAULTS_ARGS)

# Installing (README, "Installing"). The binary carries the Swift runtime and Foundation
# (--static-swift-stdlib), so a factory station needs only Debian's libdbus-1-3, libssl3, libzip4
# and liblzma5. It is built in its own scratch directory: the release builds above link without
# --static-swift-stdlib (test-bluez with it), and sharing one would relink each other's products.
# The man page and completions are the committed files (docs/dfu.1, completions/), which
# GeneratedDocumentsTests keeps equal to what the binary generates. DESTDIR stages the tree for a
# package; PREFIX is where it will live.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
INSTALL_SCRATCH ?= .build/install-release
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(INSTALL_SCRATCH)
INSTALLED := $(BINDIR)/dfu $(MANDIR)/man1/dfu.1 $(BASH_COMPLETION_DIR)/dfu $(ZSH_COMPLETION_DIR)/_dfu

release: deps
	$(RELEASE_BUILD) --product dfu

install: release
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" \
	    "$(DESTDIR)$(BASH_COMPLETION_DIR)" "$(DESTDIR)$(ZSH_COMPLETION_DIR)"
	install -m 755 "$$($(RELEASE_BUILD) --show-bin-path)/dfu" "$(DESTDIR)$(BINDIR)/dfu"
	install -m 644 docs/dfu.1 "$(DESTDIR)$(MANDIR)/man1/dfu.1"
	install -m 644 completions/dfu.bash "$(DESTDIR)$(BASH_COMPLETION_DIR)/dfu"
	install -m 644 completions/_dfu "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_dfu"

# Only the files install put there: the directories may hold other programs' files.
uninstall:
	rm -f $(foreach file,$(INSTALLED),"$(DESTDIR)$(file)")

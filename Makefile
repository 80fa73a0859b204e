# crosslink: a thin layer over the go command. `make figures` and `make test`
# are the two commands a new user needs; both work on a fresh clone.

GO      ?= go
BIN     := bin/crosslink
PROFILE ?= quick
# Packages with fuzz targets and the targets in them: see `make fuzz`.
FUZZTIME ?= 60s

.PHONY: all build test gotest testdeps figures bench instructions pgo lint fuzz clean validate ns3deps linux-peer linuxpeerdeps

all: build

# The VCS revision for --version and the datasets' metadata, also where
# GOFLAGS=-buildvcs=false keeps the go command from stamping it.
REVISION := $(shell git describe --always --dirty --abbrev=40 --exclude '*' 2>/dev/null)

build:
	$(GO) build -ldflags "-X github.com/crosslink-sim/crosslink/sweep/dataset.linkRevision=$(REVISION)" -o $(BIN) .

## test: formatting and vet checks, then every unit and integration test.
test: lint testdeps gotest

## gotest: the tests of TESTPKGS through gotestsum (pinned; `go run
## pkg@version`, as staticcheck below): a line per package as it ends, then
## the summary: every skipped test with its reason, every failure with its
## output, and `DONE N tests, S skipped, F failures in T` as the last line.
## The exit status is go test's. -timeout is go test's per test binary: the
## longest, validation/linuxpeer's kernel match and its 24 ablations (about
## 1,700 crosslink runs of 60 s on one core), took 26 minutes of a 40-minute
## run on 2 cores; the root package's integration tests take 13, and its
## line comes when they end; TESTFORMAT=testname prints a line per test as
## it ends instead.
GOTESTSUM  ?= gotest.tools/gotestsum@v1.13.0
TESTPKGS   ?= ./...
TESTFLAGS  ?= -count=1 -timeout 45m
TESTFORMAT ?= pkgname

gotest:
	$(GO) run $(GOTESTSUM) --format $(TESTFORMAT) --format-icons text --format-hide-empty-pkg -- $(TESTFLAGS) $(TESTPKGS)

## testdeps: DuckDB for node (notebooks/test), which the notebook-query and
## reader tests use as an independent Parquet reader; skipped where npm is
## missing. Then a Python virtual environment, notebooks/test/.venv, with the
## readers of notebooks/test/requirements.txt (pyarrow, polars, pandas,
## duckdb, matplotlib, nbclient, ipykernel) for the reader tests and the
## notebook; skipped with a note where python3 or its venv module is missing
## (the tests then skip, and fail under CI=true).
## `npm install` with the committed lock file rather than `npm ci`: the lock
## names DuckDB's bindings for every platform, and `npm ci` refuses to run
## when a registry mirror lacks the ones for other platforms.
VENV := notebooks/test/.venv

testdeps:
	@if command -v npm >/dev/null 2>&1 && [ ! -d notebooks/test/node_modules ]; then \
	  cd notebooks/test && npm install --no-audit --no-fund; \
	fi
	@if [ ! -f $(VENV)/.installed ] || [ notebooks/test/requirements.txt -nt $(VENV)/.installed ]; then \
	  if command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' 2>/dev/null; then \
	    python3 -m venv $(VENV) && \
	    $(VENV)/bin/pip install -q --disable-pip-version-check -r notebooks/test/requirements.txt && \
	    touch $(VENV)/.installed || { echo "testdeps: pip install failed"; [ "$$CI" != true ]; }; \
	  else \
	    echo "testdeps: no python3 with the venv module: the Python reader and notebook tests skip"; \
	  fi; \
	fi

## figures: run every spec in specs/ at the quick profile (only scenarios
## missing from out/), draw every figure into out/figures/, then write the
## reproduction report (out/figures/index.html, REPORT.md), also when some
## scenarios failed; the exit status is that of the figures command.
## JOBS=N sets the worker count (default: one per core); FIGFLAGS passes
## the figures' size, font size and resolution (FIGFLAGS='--width 8.5cm
## --font-size 8'); every figure is drawn again at them on each run.
figures: build
	./$(BIN) figures --profile $(PROFILE) $(if $(JOBS),-j $(JOBS)) $(FIGFLAGS); status=$$?; \
	./$(BIN) report --profile $(PROFILE) && exit $$status

## bench: the performance benchmarks (scenarios/s, events/s, packets/s, allocs).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## instructions: count the instructions the binary runs for a fixed piece
## of work, INSTR_RUN (two of os-compete's quick scenarios), under
## valgrind's cachegrind with one thread and the garbage collector off:
## three runs agree to 0.02 %, where the CPU time of the same work on a
## shared machine moves by up to 2x from one hour to the next. Compare two
## builds' counts to show what a change does to the engine's work (the
## GC's share is left out); `cg_annotate bin/instr.cg` breaks the count
## down by function and line. Needs valgrind (apt-get install valgrind).
INSTR_RUN ?= specs/os-compete.yaml -p quick --shard 0/80
instructions: build
	@command -v valgrind > /dev/null || { echo "make instructions needs valgrind: apt-get install valgrind" >&2; exit 1; }
	rm -rf bin/instr
	GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=bin/instr.cg \
	  ./$(BIN) run $(INSTR_RUN) -j 1 --quiet --out bin/instr 2>&1 | grep 'I *refs'

## pgo: regenerate default.pgo, the CPU profile with which `go build` (and
## so `make build`) optimises the binary (profile-guided optimisation: hot
## calls inlined, interface calls of the event loop devirtualised; the
## rows do not change). The profile is of the work of a full-profile run:
## one shard of each spec that takes a minute or more of it (PGOMIX, spec
## and shard count), sized to take about 2 CPU-seconds per worker-minute
## the spec takes in the full profile, so that each weighs in the profile
## as it does in the run; leo-network's scenarios are too long to
## shard, so its benchmark stands for it (PGOBENCH).
PGOMIX ?= os-network:31 sp-flowsize:30 os-compete:31 sp-fig1:30 rc13-fig7:30 sp-pep:32 os-testbed:30 sp-coding:32 sp-fqcodel:32 os-backbone:30 rc13-fig8:30
PGOBENCH ?= BenchmarkLEONetworkKuiperK1Short
pgo: build
	rm -rf bin/pgo && mkdir -p bin/pgo
	for s in $(PGOMIX); do \
	  ./$(BIN) run specs/$${s%%:*}.yaml --profile full --shard 2/$${s#*:} -j 1 --quiet --out bin/pgo/out --cpu-profile bin/pgo/$${s%%:*}.prof || exit 1; \
	done
	$(GO) test ./engine/models -run '^$$' -bench '$(PGOBENCH)' -benchtime 3x -cpuprofile $(CURDIR)/bin/pgo/leo.prof -o $(CURDIR)/bin/pgo/models.test
	$(GO) tool pprof -proto bin/pgo/*.prof > default.pgo

## lint: gofmt, go vet, a tidy go.mod (`go mod tidy -diff` prints what
## `go mod tidy` would change and fails) and staticcheck at a pinned version
## (`go run pkg@version` verifies the download against the Go checksum database
## and leaves the project's own go.mod untouched).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run 'go mod tidy'"; exit 1; }
	$(GO) run $(STATICCHECK) ./...

## fuzz: each fuzz target for FUZZTIME (60s by default).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

## validate: the peer comparison with ns-3 (not part of `make test`): install
## ns-3 3.37 from Debian if it is missing, build the programs in
## validation/ns3/, run every scenario of validation/scenarios.go in both
## simulators (SEEDS seeds each) and write validation/results.csv and
## docs/validation.md. ONLY=name,name reruns some scenarios.
SEEDS ?= 5
ONLY  ?=
NS3_LIBS := -lns3-core -lns3-network -lns3-internet -lns3-applications -lns3-point-to-point -lns3-traffic-control
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
validate: ns3deps bin/validation/link bin/validation/dumbbell
	$(GO) run ./validation/cmd/validate -ns3 bin/validation -seeds $(SEEDS) -only '$(ONLY)'

ns3deps:
	@if ! dpkg -s libns3-dev >/dev/null 2>&1 || ! command -v g++ >/dev/null 2>&1; then \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ns3 libns3-dev g++; \
	fi

# --no-as-needed: the programs name few symbols of some libraries whose
# TypeIds they look up by name.
bin/validation/%: validation/ns3/%.cc validation/ns3/tcphost.h
	@mkdir -p bin/validation
	g++ -O2 -std=c++17 -Wall -o $@ $< -Wl,--no-as-needed $(NS3_LIBS)

## linux-peer: document 002's testbed in a real Linux 6.1 kernel beside
## crosslink (not part of `make test`): build Debian's linux-source-6.1 as
## User-Mode Linux with time travel (a few minutes), once as it is and once
## with Google's BBRv2 alpha (its tcp_bbr2.c fetched from BBR2_URL), run the
## scenarios of validation/linuxpeer (about a minute each, two at a time) and
## write validation/linuxpeer/results.csv and docs/linux-peer.md.
linux-peer: linuxpeerdeps bin/linux-peer/linux bin/linux-peer/linux-bbr2
	$(GO) run ./validation/cmd/linuxpeer -kernel bin/linux-peer/linux -kernel-bbr2 bin/linux-peer/linux-bbr2

linuxpeerdeps:
	@if ! [ -f /usr/src/linux-source-6.1.tar.xz ] || ! command -v cc >/dev/null 2>&1 || \
	    ! command -v tc >/dev/null 2>&1 || ! command -v ss >/dev/null 2>&1 || ! command -v sysctl >/dev/null 2>&1; then \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	    linux-source-6.1 build-essential flex bison bc xz-utils iproute2 procps; \
	fi

bin/linux-peer/linux: validation/linuxpeer/kernel/build.sh validation/linuxpeer/kernel/uml.config
	@mkdir -p bin/linux-peer
	WORK=bin/linux-peer/src validation/linuxpeer/kernel/build.sh $@

# The BBRv2 alpha's congestion control module; build.sh checks that it is
# the file its bbr2.patch was made for.
BBR2_URL ?= https://raw.githubusercontent.com/google/bbr/v2alpha/net/ipv4/tcp_bbr2.c

bin/linux-peer/tcp_bbr2.c:
	@mkdir -p bin/linux-peer
	curl -fsSL -o $@.tmp $(BBR2_URL) && mv $@.tmp $@

bin/linux-peer/linux-bbr2: validation/linuxpeer/kernel/build.sh validation/linuxpeer/kernel/uml.config validation/linuxpeer/kernel/bbr2.patch bin/linux-peer/tcp_bbr2.c
	WORK=bin/linux-peer/src-bbr2 validation/linuxpeer/kernel/build.sh $@ bin/linux-peer/tcp_bbr2.c

clean:
	rm -rf bin
	find out -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +

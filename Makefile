# One-command setup: every target provisions what it needs under .cache/ and is a no-op when the
# cache is complete. `make test` is what CI runs (.ci/run); `make demo` is the README's main job.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON   ?= $(shell command -v python3.11 || command -v python3)
CACHE    := .cache
VENV     := $(CACHE)/venv
PY       := $(VENV)/bin/python
VERSION  := $(shell sed -n 's/^__version__ = "\(.*\)"/\1/p' accelerator/__init__.py)
# The Flink release of the local clusters: the jar's build release unless given (FLINK_VERSION=2.3.0
# make compat); the Python side reads it from ACCELERATOR_FLINK_VERSION (accelerator/testing/locations.py).
BUILD_FLINK_VERSION := $(shell sed -n 's/^FLINK_VERSION = "\(.*\)"/\1/p' accelerator/__init__.py)
FLINK_VERSION ?= $(BUILD_FLINK_VERSION)
export ACCELERATOR_FLINK_VERSION := $(FLINK_VERSION)
MVN      := mvn -B -q -Dstyle.color=never
# One jar per Flink line (accelerator/flink_lines.py): the 2.x jar (the default build) and the 1.20 jar
# (profile flink-1.20); `make setup` builds both: the local clusters get the one of FLINK_VERSION's line, the wheel both.
SHIM_JAR := java-shim/target/flink-accelerator-$(VERSION).jar
SHIM_JAR_120 := java-shim/target/flink-1.20/flink-accelerator-$(VERSION)-flink-1.20.jar
LINE_PROFILE := $(if $(filter 1.20.%,$(FLINK_VERSION)),-Pflink-1.20)
SHIM_SRC := $(shell find java-shim/src -type f 2>/dev/null) java-shim/pom.xml
RUNTIME_JARS := $(CACHE)/runtime-jars/flink-$(FLINK_VERSION)/.fetched
FLINK_HOME   := $(CACHE)/flink-$(FLINK_VERSION)
FLINK_DIST   := $(FLINK_HOME)/.assembled
PYTEST_ARGS  ?=
# The native format kernels (Rust) are compiled by the package's own install (setuptools-rust).
NATIVE_SRC   := native/Cargo.toml native/Cargo.lock $(shell find native/src -type f 2>/dev/null)

.PHONY: help setup venv shim dist test test-stream-services test-stream-cpu test-rust test-java test-java-1.20 test-python test-python-no-services test-python-services compat compat-docs compat-versions compat-release demo bench bench-p2 bench-stateful bench-quick bench-formats soak clean-cache
help:
	@echo "make demo   - run the main job on a local Kafka broker and stock Flink $(FLINK_VERSION)"
	@echo "make test   - everything CI runs: the service tests beside the Rust and Java tests, the other Python tests and the compat suite"
	@echo "make setup  - only provision (venv, shim jar, runtime jars, Flink distribution)"
	@echo "make dist   - the installable wheel (native kernels and the jar inside) and the jar, in dist/ (docs/deploy.md)"
	@echo "make compat - the compatibility suite alone (stock vs accelerated Flink on every case);"
	@echo "               FLINK_VERSION=2.3.0 make compat runs it on that release's stock distribution"
	@echo "make compat-versions - the suite on every other supported Flink release, for docs/compatibility.md"
	@echo "make test-java-1.20 - the Java tests against Flink 1.20 (FLINK_VERSION=1.20.3 make compat-release: its suite)"
	@echo "make bench  - Nexmark on Kafka, stock vs accelerated; writes benchmarks/results/ and docs/performance.md"
	@echo "make bench-p2 - the stateless Nexmark queries at parallelism 2; its own section of docs/performance.md"
	@echo "make bench-stateful - the stateful Nexmark queries on hashmap and RocksDB, checkpointed; its own section of docs/performance.md"
	@echo "make bench-formats - json/avro decode+encode per core, ours vs Flink's (de)serializers; updates docs/performance.md"
	@echo "make soak   - the long reliability run: job cycles, load, sidecar faults (several hours)"

setup: $(VENV)/.installed $(SHIM_JAR) $(SHIM_JAR_120) $(RUNTIME_JARS) $(FLINK_DIST)
venv: $(VENV)/.installed
shim: $(SHIM_JAR) $(SHIM_JAR_120)

$(VENV)/.installed: pyproject.toml $(NATIVE_SRC)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,bench]'
	@touch $@

$(SHIM_JAR): $(SHIM_SRC)
	$(MVN) -f java-shim/pom.xml package -DskipTests
	@touch $@

$(SHIM_JAR_120): $(SHIM_SRC)
	$(MVN) -f java-shim/pom.xml -Pflink-1.20 package -DskipTests
	@touch $@

# The wheel (manylinux, the jar inside as package data) and the jar beside it; built once per
# source digest under .cache/dist/ (accelerator/testing/package.py), copied to $(DIST_DIR).
DIST_DIR ?= dist
dist: $(VENV)/.installed $(SHIM_JAR) $(SHIM_JAR_120)
	$(PY) -m accelerator.testing.package --out $(DIST_DIR)

$(RUNTIME_JARS): java-shim/test-runtime/pom.xml
	rm -rf $(dir $@)
	$(MVN) -f java-shim/test-runtime/pom.xml package -Druntime.dir=$(abspath $(CACHE)/runtime-jars) \
		-Dflink.version=$(FLINK_VERSION) $(LINE_PROFILE)
	@touch $@

# The venv only runs the assembly: a new Python dependency must not re-assemble the distribution.
# lib/ also gets the compatibility cases' protobuf message classes, compiled from their .proto files.
$(FLINK_DIST): $(RUNTIME_JARS) $(wildcard flink-compat-tests/protos/*.proto) | $(VENV)/.installed
	rm -rf $(FLINK_HOME)
	$(PY) -m accelerator.testing.distribution

# Two streams at once on the provisioned tree: the service tests, one at a time (their fault tests
# time kills against running jobs, and they spend most of their time waiting on jobs, checkpoints
# and restarts), beside the CPU-bound parts one after another (Java tests, the tests without
# services, the compatibility suite). Each output line is prefixed with its part; a failing part
# fails `make test` (the other stream still runs to its end, so its log is complete too).
test: setup
	@$(MAKE) --no-print-directory -j2 test-stream-services test-stream-cpu

# $(call in_part,NAME,TARGETS): make TARGETS, each output line prefixed with [NAME], failing as they do.
in_part = set -o pipefail; $(MAKE) --no-print-directory $(2) 2>&1 | sed -u 's/^/[$(1)] /'

test-stream-services:
	@+$(call in_part,services,test-python-services)

test-stream-cpu:
	@+$(call in_part,rust,test-rust)
	@+$(call in_part,java,test-java)
	@+$(call in_part,no-services,test-python-no-services)
	@+$(call in_part,compat,compat)

# The native crate's unit tests, in the environment setuptools-rust built the extension in
# (`make setup`), so cargo reuses the compiled dependencies in native/target and builds only the
# crate's test harness (about 20 CPU-seconds).
test-rust: $(VENV)/.installed
	PYO3_PYTHON=$(abspath $(PY)) PYTHON_SYS_EXECUTABLE=$(abspath $(PY)) PYO3_BUILD_EXTENSION_MODULE=1 \
		cargo test --release --manifest-path native/Cargo.toml

# The sidecar tests start the real Python sidecar from the venv; tests that plan csv tables take
# flink-csv from the distribution (it is not in the Maven repositories). `test`, not `verify`: the
# jar the service tests copy into their clusters is setup's, and must not be rewritten under them.
test-java: $(VENV)/.installed $(FLINK_DIST)
	$(MVN) -f java-shim/pom.xml test

# The Java tests compiled and run against Flink 1.20.3 (the 1.20 jar's build; its operator harness tests
# compare with 1.20's stock operators). Not part of `make test`.
test-java-1.20:
	$(MAKE) --no-print-directory setup FLINK_VERSION=1.20.3
	$(MVN) -f java-shim/pom.xml -Pflink-1.20 verify

# The tests without services run on two processes (one per core: most of them wait on a JVM
# oracle or a sidecar part of the time); the service tests, which time faults against running
# jobs, one at a time.
test-python: test-python-no-services test-python-services

test-python-no-services: setup
	$(PY) -m pytest -m "not services" -n 2 --dist loadfile $(PYTEST_ARGS)

test-python-services: setup
	$(PY) -m pytest -m services $(PYTEST_ARGS)

# Cases at once: each spends most of its time waiting on Kafka, the gateway and job scheduling,
# so six keep both cores busy (three left a third of the CPU idle).
COMPAT_WORKERS ?= 6
compat: setup
	$(PY) -m accelerator compat --workers $(COMPAT_WORKERS) --report $(CACHE)/compat-report-$(FLINK_VERSION).json

# The other supported Flink 2 releases (flink2.supported.versions in java-shim/pom.xml): the suite on
# each one's stock distribution with the same jar, its report committed under flink-compat-tests/results/
# for the per-release rows of docs/compatibility.md. Not part of `make test`: each is a full suite.
# The 1.20 line has a jar of its own: FLINK_VERSION=1.20.3 make compat-release.
SUPPORTED_FLINK_VERSIONS := $(shell sed -n 's:.*<flink2.supported.versions>\(.*\)</flink2.supported.versions>.*:\1:p' java-shim/pom.xml | tr , ' ')
OTHER_FLINK_VERSIONS := $(filter-out $(BUILD_FLINK_VERSION),$(SUPPORTED_FLINK_VERSIONS))
RELEASE_REPORTS := flink-compat-tests/results
compat-versions:
	@status=0; for v in $(OTHER_FLINK_VERSIONS); do \
		$(MAKE) --no-print-directory compat-release FLINK_VERSION=$$v || status=1; done; exit $$status

compat-release: setup
	$(PY) -m accelerator compat --workers $(COMPAT_WORKERS) --report $(RELEASE_REPORTS)/flink-$(FLINK_VERSION).json

compat-docs: setup
	$(PY) -m accelerator compat --workers $(COMPAT_WORKERS) --report $(CACHE)/compat-report-$(FLINK_VERSION).json \
		--summary docs/compatibility.md --other-reports $(wildcard $(RELEASE_REPORTS)/flink-*.json)

demo: setup
	$(PY) -m accelerator demo

# The default size takes about an hour on 2 cores (the stateful queries half of it);
# bench-quick is a look in a few minutes that leaves docs/performance.md alone.
BENCH_ARGS ?= --events 2000000 --parallelism 1 --rounds 5
bench: setup
	$(PY) -m accelerator bench $(BENCH_ARGS) --docs docs/performance.md \
		--command-line "make bench  (= accelerator bench $(BENCH_ARGS) --docs docs/performance.md)"

# The targets' second parallelism: the stateless queries only, its own section of the page.
BENCH_P2_ARGS = --events 2000000 --parallelism 2 --queries q0,q1,q2,q14,q21,q22 --rounds 5
bench-p2: setup
	$(PY) -m accelerator bench $(BENCH_P2_ARGS) --docs docs/performance.md \
		--command-line "make bench-p2  (= accelerator bench $(BENCH_P2_ARGS) --docs docs/performance.md)"

# The stateful Nexmark queries of issue 18 and the regular joins of issue 19 on both state backends,
# checkpointed every 10 s into exactly-once sinks: its own section. One round of 40 jobs after 20 warm-ups; its first run (2026-12-06,
# 2 cores shared at load average ~35) took 53 minutes, 17 of them q17's two accelerated runs.
BENCH_STATEFUL_ARGS = --events 400000 --parallelism 1 --queries q4_agg,q5_agg,q7_agg,q11,q12,q15,q16,q17,q18,q19,q3,q4,q7,q20 \
	--rounds 1 --state-backends hashmap,rocksdb --section stateful
bench-stateful: setup
	$(PY) -m accelerator bench $(BENCH_STATEFUL_ARGS) --docs docs/performance.md \
		--command-line "make bench-stateful  (= accelerator bench $(BENCH_STATEFUL_ARGS) --docs docs/performance.md)"

bench-quick: setup
	$(PY) -m accelerator bench --events 200000 --queries q0,q1,q2 --rounds 1 --report $(CACHE)/bench-quick/report.json

# Format codecs alone, ours vs Flink's own (de)serializers in a plain JVM, one CPU each: about
# 2 minutes. Needs the venv and the Flink distribution (its lib/ is the Java side's classpath).
BENCH_FORMATS_ARGS ?= --rows 262144 --batch 65536 --rounds 5
bench-formats: $(VENV)/.installed $(FLINK_DIST)
	$(PY) -m accelerator bench-formats $(BENCH_FORMATS_ARGS) --docs docs/performance.md \
		--command-line "make bench-formats  (= accelerator bench-formats $(BENCH_FORMATS_ARGS) --docs docs/performance.md)"

# Reliability soak (docs/reliability.md): 100 job cycles, a 30-minute run under load, 20 sidecar
# faults in a checkpointed exactly-once job, 50 faults (sidecar and TaskManager kills) in an
# exactly-once job whose window aggregate runs in the sidecar, the TaskManager kill, 300 messages
# of 10 MB, the decoder fuzz corpus and 10,000 random shuffled batches through the decoders (tests/fuzz/test_batch_fuzz.py).
soak: setup
	ACCELERATOR_SOAK_CYCLES=100 ACCELERATOR_SOAK_SECONDS=1800 ACCELERATOR_FAULT_KILLS=20 ACCELERATOR_STATEFUL_FAULT_KILLS=50 \
	ACCELERATOR_LARGE_MESSAGES=300 \
	ACCELERATOR_FUZZ_BATCHES=10000 \
	ACCELERATOR_SOAK_REPORT=$(abspath $(CACHE)/soak-report.json) \
	$(PY) -m pytest tests/reliability tests/fuzz $(PYTEST_ARGS)

clean-cache:
	rm -rf $(CACHE)

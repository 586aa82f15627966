-- The answer pipeline's records: one row per LLM attempt, one row per answer (the audit).
-- Neither holds personal data: questions are scrubbed before they reach any table, prompts are
-- kept only as a hash, and quotes only as a hash plus their place in the corpus.

-- One row per attempt at an LLM call (a retry or a fallback is another row), under the
-- request_id of the request that made it.
CREATE TABLE llm_calls (
    id              BIGSERIAL PRIMARY KEY,
    request_id      TEXT        NOT NULL,
    purpose         TEXT        NOT NULL CHECK (purpose IN ('router', 'hyde', 'answer')),
    -- 'primary' or 'fallback': which configured endpoint was tried.
    provider        TEXT        NOT NULL,
    model           TEXT        NOT NULL,
    prompt_name     TEXT        NOT NULL,
    prompt_version  INTEGER     NOT NULL,
    -- sha256 of the rendered messages: proves what was sent without storing it.
    prompt_sha256   TEXT        NOT NULL,
    tokens_in       INTEGER,
    tokens_out      INTEGER,
    latency_ms      DOUBLE PRECISION NOT NULL,
    ttft_ms         DOUBLE PRECISION,
    status          TEXT        NOT NULL CHECK (status IN ('ok', 'timeout', 'http_error', 'transport_error', 'bad_response', 'invalid_output')),
    error           TEXT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX llm_calls_request ON llm_calls (request_id);
CREATE INDEX llm_calls_created ON llm_calls (created_at);

-- One row per answered (or refused) question: enough to rebuild the answer's basis from the
-- stored corpus and to tell whether each quote still matches.
CREATE TABLE answers (
    request_id          TEXT PRIMARY KEY,
    -- The question after scrubbing direct identifiers (phone, email, ID numbers, PIN codes …).
    question_scrubbed   TEXT        NOT NULL,
    route               TEXT        NOT NULL,
    mode                TEXT        NOT NULL,
    refused             BOOLEAN     NOT NULL,
    refusal_reason      TEXT,
    degraded            BOOLEAN     NOT NULL,
    llm_used            BOOLEAN     NOT NULL,
    -- [{n, ref, clause, start_char, end_char, quote_sha256}]
    citations           JSONB       NOT NULL,
    -- Every provision retrieval returned, in order.
    retrieved_refs      TEXT[]      NOT NULL,
    -- What the guards removed: {stripped_citations, dropped_quotes, dropped_figures}.
    guards              JSONB       NOT NULL,
    corpus_edition      TEXT        NOT NULL,
    corpus_sha256       TEXT        NOT NULL,
    pipeline_version    TEXT        NOT NULL,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX answers_created ON answers (created_at);

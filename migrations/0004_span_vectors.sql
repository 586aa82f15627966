-- Vectors of the passages the answer step scores to choose the quoted clause: every clause
-- span, and a provision's whole text when it is short (answer::extract::all_spans). Keyed by
-- the exact text embedded (passage prefix included) and the model, like a cache: rows survive
-- a re-ingest of unchanged text, new text is embedded at ingest, and another model's rows are
-- simply not read. An answer then embeds only its question.
CREATE TABLE span_vectors (
    model_id   TEXT   NOT NULL,
    text       TEXT   NOT NULL,
    embedding  REAL[] NOT NULL
);
CREATE UNIQUE INDEX span_vectors_key ON span_vectors (model_id, md5(text));

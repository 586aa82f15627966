-- The multilingual dense leg (adr/0013-multilingual-leg.md): a second model's vectors
-- (multilingual-e5-small), searched only for questions not in English. Keyed like span_vectors
-- by the model and the exact text embedded (a chunk's heading, a newline, its text; the engine
-- adds e5's prefix itself), so they are a derived cache outside the corpus transaction: filled
-- after an ingest (`nyaya ingest`, or in the background of `nyaya serve`), kept across
-- re-ingests of unchanged text, and shared by the editions that print a chunk alike. The leg
-- scans an edition's two thousand rows at most exactly, with no index (about a millisecond).
ALTER TABLE chunks ADD COLUMN text_md5 TEXT
    GENERATED ALWAYS AS (md5(heading || E'\n' || text)) STORED;
CREATE INDEX chunks_text_md5 ON chunks (text_md5);

CREATE TABLE chunk_text_vectors (
    model_id   TEXT   NOT NULL,
    text_md5   TEXT   NOT NULL,
    embedding  vector NOT NULL,
    PRIMARY KEY (model_id, text_md5)
);

-- The question bank's vectors (src/search/bank.rs, ADR 0008): each hand-written question of
-- data/train/written.jsonl embedded as a query by one model. Keyed like span_vectors by the
-- model and the exact text embedded (query prefix included), so they are a derived cache: the
-- first process that needs the bank embeds what is missing and stores it, later ones load it
-- in milliseconds instead of embedding 2,687 questions (about five seconds), and an edited
-- question is simply a new row (rows no question uses any more are not read).
CREATE TABLE bank_vectors (
    model_id   TEXT   NOT NULL,
    text       TEXT   NOT NULL,
    embedding  REAL[] NOT NULL
);
CREATE UNIQUE INDEX bank_vectors_key ON bank_vectors (model_id, md5(text));

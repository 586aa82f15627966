-- The corpus: one ingested PDF at a time, replaced atomically by a re-ingest.
CREATE EXTENSION IF NOT EXISTS vector;

-- Every ingest attempt that changed the corpus. Exactly one row is current.
CREATE TABLE documents (
    id              BIGSERIAL PRIMARY KEY,
    edition         TEXT        NOT NULL,
    sha256          TEXT        NOT NULL,
    parser_version  TEXT        NOT NULL,
    source_name     TEXT        NOT NULL,
    pages           INTEGER     NOT NULL,
    -- The ingest summary (counts, missing, duplicates) so a no-op re-ingest can report it.
    summary         JSONB       NOT NULL,
    pdf             BYTEA,
    is_current      BOOLEAN     NOT NULL DEFAULT false,
    ingested_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX documents_single_current ON documents (is_current) WHERE is_current;

CREATE TABLE provisions (
    ref_id        TEXT PRIMARY KEY,
    document_id   BIGINT  NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    -- Position in constitutional order (Preamble, 1, 2, 2A, …, SCH-1, …, APP-III).
    ordinal       INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('preamble', 'article', 'schedule', 'appendix')),
    number        TEXT    NOT NULL,
    title         TEXT    NOT NULL,
    part_number   TEXT,
    part_title    TEXT,
    chapter       TEXT,
    subheading    TEXT,
    status        TEXT    NOT NULL CHECK (status IN ('in_force', 'omitted')),
    page_start    INTEGER NOT NULL,
    page_end      INTEGER NOT NULL,
    heading_line  TEXT    NOT NULL,
    text          TEXT    NOT NULL
);
CREATE INDEX provisions_part ON provisions (part_number);
CREATE INDEX provisions_ordinal ON provisions (ordinal);

CREATE TABLE clauses (
    ref_id      TEXT    NOT NULL REFERENCES provisions (ref_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    label       TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    -- Char (Unicode scalar) offsets into provisions.text.
    start_char  INTEGER NOT NULL,
    end_char    INTEGER NOT NULL,
    PRIMARY KEY (ref_id, seq)
);

CREATE TABLE amendment_notes (
    ref_id            TEXT    NOT NULL REFERENCES provisions (ref_id) ON DELETE CASCADE,
    seq               INTEGER NOT NULL,
    marker            INTEGER,
    kind              TEXT    NOT NULL,
    instrument        TEXT,
    amendment_number  INTEGER,
    section           TEXT,
    effective_from    DATE,
    effective_text    TEXT,
    clause_label      TEXT,
    start_char        INTEGER,
    end_char          INTEGER,
    page              INTEGER NOT NULL,
    raw               TEXT    NOT NULL,
    PRIMARY KEY (ref_id, seq)
);
CREATE INDEX amendment_notes_instrument ON amendment_notes (amendment_number);

CREATE TABLE cross_refs (
    from_ref    TEXT    NOT NULL REFERENCES provisions (ref_id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    -- Exactly one of to_ref (a provision) and to_part (a Part, "III") is set.
    to_ref      TEXT,
    to_part     TEXT,
    clause      TEXT,
    surface     TEXT    NOT NULL,
    PRIMARY KEY (from_ref, seq),
    CHECK ((to_ref IS NULL) <> (to_part IS NULL))
);
CREATE INDEX cross_refs_to ON cross_refs (to_ref);

CREATE TABLE chunks (
    id               BIGSERIAL PRIMARY KEY,
    ref_id           TEXT    NOT NULL REFERENCES provisions (ref_id) ON DELETE CASCADE,
    seq              INTEGER NOT NULL,
    clause_labels    TEXT[]  NOT NULL,
    start_char       INTEGER NOT NULL,
    end_char         INTEGER NOT NULL,
    heading          TEXT    NOT NULL,
    text             TEXT    NOT NULL,
    tokens           INTEGER NOT NULL,
    -- The marginal title (in the heading) outranks the body for lexical search.
    tsv              TSVECTOR GENERATED ALWAYS AS (
                         setweight(to_tsvector('english', heading), 'A') ||
                         setweight(to_tsvector('english', text), 'B')) STORED,
    -- Filled by the embedding step; the model id travels with every vector.
    embedding        vector,
    embedding_model  TEXT,
    UNIQUE (ref_id, seq)
);
CREATE INDEX chunks_tsv ON chunks USING GIN (tsv);

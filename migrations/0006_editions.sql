-- Editions side by side (adr/0012-editions-side-by-side.md). A corpus row is keyed by its
-- document, so the 2022 and 2024 printings live together: `documents.is_current` now means "the
-- live document of its edition" (one per edition date), every child row carries its
-- document_id, and the BM25 lexicon is kept per document. Ingesting an edition replaces only
-- that edition's rows, in one transaction.

ALTER TABLE documents ADD COLUMN edition_date DATE;
-- The date printed on the cover ("As on 1st May, 2024"; a month alone means its first day),
-- as nyaya_ingest::diff::edition_date reads it; the ingest day when the label has none.
UPDATE documents d SET edition_date = coalesce(
    (SELECT to_date(coalesce(m[1], '1') || ' ' || m[2] || ' ' || m[3], 'DD Month YYYY')
     FROM regexp_match(d.edition,
          '(?:(\d{1,2})(?:st|nd|rd|th)?\s+)?(january|february|march|april|may|june|july|august|september|october|november|december),?\s+(\d{4})',
          'i') AS m
     WHERE m IS NOT NULL),
    d.ingested_at::date);
ALTER TABLE documents ALTER COLUMN edition_date SET NOT NULL;
DROP INDEX documents_single_current;
CREATE UNIQUE INDEX documents_current_per_edition ON documents (edition_date) WHERE is_current;

-- The lexicon views read chunks; they are rebuilt below with the document in them.
DROP MATERIALIZED VIEW chunk_stats;
DROP MATERIALIZED VIEW chunk_lexicon;
DROP MATERIALIZED VIEW chunk_terms;

ALTER TABLE clauses DROP CONSTRAINT clauses_ref_id_fkey;
ALTER TABLE amendment_notes DROP CONSTRAINT amendment_notes_ref_id_fkey;
ALTER TABLE cross_refs DROP CONSTRAINT cross_refs_from_ref_fkey;
ALTER TABLE chunks DROP CONSTRAINT chunks_ref_id_fkey;

ALTER TABLE clauses ADD COLUMN document_id BIGINT;
ALTER TABLE amendment_notes ADD COLUMN document_id BIGINT;
ALTER TABLE cross_refs ADD COLUMN document_id BIGINT;
ALTER TABLE chunks ADD COLUMN document_id BIGINT;
UPDATE clauses x SET document_id = p.document_id FROM provisions p WHERE p.ref_id = x.ref_id;
UPDATE amendment_notes x SET document_id = p.document_id FROM provisions p WHERE p.ref_id = x.ref_id;
UPDATE cross_refs x SET document_id = p.document_id FROM provisions p WHERE p.ref_id = x.from_ref;
UPDATE chunks x SET document_id = p.document_id FROM provisions p WHERE p.ref_id = x.ref_id;
ALTER TABLE clauses ALTER COLUMN document_id SET NOT NULL;
ALTER TABLE amendment_notes ALTER COLUMN document_id SET NOT NULL;
ALTER TABLE cross_refs ALTER COLUMN document_id SET NOT NULL;
ALTER TABLE chunks ALTER COLUMN document_id SET NOT NULL;

ALTER TABLE provisions DROP CONSTRAINT provisions_pkey;
ALTER TABLE provisions ADD PRIMARY KEY (document_id, ref_id);
DROP INDEX provisions_part;
DROP INDEX provisions_ordinal;
CREATE INDEX provisions_part ON provisions (document_id, part_number);
CREATE INDEX provisions_ordinal ON provisions (document_id, ordinal);

ALTER TABLE clauses DROP CONSTRAINT clauses_pkey;
ALTER TABLE clauses ADD PRIMARY KEY (document_id, ref_id, seq);
ALTER TABLE clauses ADD FOREIGN KEY (document_id, ref_id)
    REFERENCES provisions (document_id, ref_id) ON DELETE CASCADE;

ALTER TABLE amendment_notes DROP CONSTRAINT amendment_notes_pkey;
ALTER TABLE amendment_notes ADD PRIMARY KEY (document_id, ref_id, seq);
ALTER TABLE amendment_notes ADD FOREIGN KEY (document_id, ref_id)
    REFERENCES provisions (document_id, ref_id) ON DELETE CASCADE;

ALTER TABLE cross_refs DROP CONSTRAINT cross_refs_pkey;
ALTER TABLE cross_refs ADD PRIMARY KEY (document_id, from_ref, seq);
ALTER TABLE cross_refs ADD FOREIGN KEY (document_id, from_ref)
    REFERENCES provisions (document_id, ref_id) ON DELETE CASCADE;
DROP INDEX cross_refs_to;
CREATE INDEX cross_refs_to ON cross_refs (document_id, to_ref);

ALTER TABLE chunks DROP CONSTRAINT chunks_ref_id_seq_key;
ALTER TABLE chunks ADD UNIQUE (document_id, ref_id, seq);
ALTER TABLE chunks ADD FOREIGN KEY (document_id, ref_id)
    REFERENCES provisions (document_id, ref_id) ON DELETE CASCADE;

-- As in 0002_lexicon.sql, per document: BM25's document frequencies and average length are
-- those of the edition searched.
CREATE MATERIALIZED VIEW chunk_terms AS
    SELECT c.document_id, c.id AS chunk_id, c.ref_id, c.tokens, u.lexeme,
           (SELECT sum(CASE w WHEN 'A' THEN 2 ELSE 1 END) FROM unnest(u.weights) AS w)::float8 AS tf
    FROM public.chunks c, unnest(c.tsv) AS u;
CREATE INDEX chunk_terms_lexeme ON chunk_terms (lexeme, document_id);

CREATE MATERIALIZED VIEW chunk_lexicon AS
    SELECT document_id, lexeme, count(*)::float8 AS ndoc
    FROM public.chunk_terms GROUP BY document_id, lexeme;
CREATE UNIQUE INDEX chunk_lexicon_lexeme ON chunk_lexicon (document_id, lexeme);

CREATE MATERIALIZED VIEW chunk_stats AS
    SELECT document_id, count(*)::float8 AS n, coalesce(avg(tokens), 1)::float8 AS avg_tokens
    FROM public.chunks GROUP BY document_id;
CREATE UNIQUE INDEX chunk_stats_document ON chunk_stats (document_id);

ANALYZE chunk_terms;
ANALYZE chunk_lexicon;
ANALYZE chunk_stats;

-- Which document an answer was built from, so that its reconstruction reads that edition even
-- after a newer one is ingested (null for answers recorded before editions were kept apart).
ALTER TABLE answers ADD COLUMN corpus_document_id BIGINT;

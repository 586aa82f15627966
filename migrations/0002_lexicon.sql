-- An inverted index for BM25 in the lexical leg: one row per (chunk, lexeme) with its term
-- frequency, how many chunks hold each lexeme, and the average chunk length. A query touches
-- only the postings of its own lexemes. Materialised because they change only when the corpus
-- does; the ingest transaction refreshes them (REFRESH is transactional, so readers never see
-- a mix).
-- Tables are schema-qualified: since PostgreSQL 17 a materialised view is built and refreshed
-- with search_path = pg_catalog, pg_temp.

-- tf counts an occurrence in the heading (weight A: the marginal title) twice.
CREATE MATERIALIZED VIEW chunk_terms AS
    SELECT c.id AS chunk_id, c.ref_id, c.tokens, u.lexeme,
           (SELECT sum(CASE w WHEN 'A' THEN 2 ELSE 1 END) FROM unnest(u.weights) AS w)::float8 AS tf
    FROM public.chunks c, unnest(c.tsv) AS u;
CREATE INDEX chunk_terms_lexeme ON chunk_terms (lexeme);

CREATE MATERIALIZED VIEW chunk_lexicon AS
    SELECT lexeme, count(*)::float8 AS ndoc FROM public.chunk_terms GROUP BY lexeme;
CREATE UNIQUE INDEX chunk_lexicon_lexeme ON chunk_lexicon (lexeme);

CREATE MATERIALIZED VIEW chunk_stats AS
    SELECT count(*)::float8 AS n, coalesce(avg(tokens), 1)::float8 AS avg_tokens FROM public.chunks;

-- The planner needs statistics to use the lexeme index rather than scan every posting.
ANALYZE chunk_terms;
ANALYZE chunk_lexicon;
ANALYZE chunk_stats;

//! The embedder for real: the bundled MiniLM int8 through ONNX Runtime, loaded from the files
//! `make setup` installs; and the corpus embedded at ingest, once, with a model change
//! re-embedding only what lacks the new model's vectors.

mod common;

use nyaya::embed::{Embedder, OnnxEmbedder};
use sqlx::PgPool;

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn minilm_embeds_offline_and_ranks_by_meaning() {
    let e = OnnxEmbedder::load(&common::model_dir(), &common::ort_lib())
        .expect("model (run `make setup`)");
    assert_eq!(e.manifest().dim, 384);
    let q = e.embed_query("right to education for children").unwrap();
    let passages = e
        .embed_passages(&[
            "The State shall provide free and compulsory education to all children of the age of six to fourteen years".into(),
            "Parliament may by law regulate the right of citizenship".into(),
        ])
        .unwrap();
    assert!(passages.iter().all(|v| v.len() == 384));
    assert!((cos(&q, &q) - 1.0).abs() < 1e-4, "unit vectors");
    assert!(cos(&q, &passages[0]) > cos(&q, &passages[1]) + 0.1);
}

/// The shipped query adapter was fitted for the bundled model (else the search would never
/// apply it), and it moves a question in users' words towards the provision that answers it:
/// "top lawyer" is nowhere in Article 76, which the adapter learned from other wordings.
#[test]
fn the_shipped_query_adapter_belongs_to_the_bundled_model() {
    use nyaya::search::adapter::QueryAdapter;
    let e = OnnxEmbedder::load(&common::model_dir(), &common::ort_lib())
        .expect("model (run `make setup`)");
    let a = QueryAdapter::for_model(&e.manifest().id).expect("the adapter is the bundled model's");
    let q = e
        .embed_query("Who is the central government's top lawyer and who picks them?")
        .unwrap();
    let passages = e
        .embed_passages(&[
            "Attorney-General for India\n(1) The President shall appoint a person who is qualified to be appointed a Judge of the Supreme Court to be Attorney-General for India.".into(),
            "Advocate-General for the State\n(1) The Governor of each State shall appoint a person who is qualified to be appointed a Judge of a High Court to be Advocate-General for the State.".into(),
        ])
        .unwrap();
    let mapped = a.apply(&q);
    assert!((cos(&mapped, &mapped) - 1.0).abs() < 1e-4, "unit vectors");
    let margin = |v: &[f32]| cos(v, &passages[0]) - cos(v, &passages[1]);
    assert!(
        margin(&mapped) > margin(&q),
        "the Union's officer: {} as embedded, {} as mapped",
        margin(&q),
        margin(&mapped)
    );
}

/// A batch is embedded in length order but answered in input order, and each vector is what
/// the text gets alone (padding is masked out).
#[test]
fn a_mixed_batch_keeps_its_order_and_matches_texts_alone() {
    let e = OnnxEmbedder::load(&common::model_dir(), &common::ort_lib())
        .expect("model (run `make setup`)");
    let texts: Vec<String> = [
        "No person shall be deprived of his life or personal liberty except according to procedure established by law, and every person who is arrested shall be informed, as soon as may be, of the grounds for such arrest.",
        "Untouchability is abolished.",
        "The State shall provide free and compulsory education to all children of the age of six to fourteen years.",
        "Parliament",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    let batch = e.embed_raw(&texts).unwrap();
    assert_eq!(batch.len(), texts.len());
    for (text, v) in texts.iter().zip(&batch) {
        let alone = &e.embed_raw(std::slice::from_ref(text)).unwrap()[0];
        assert!(cos(v, alone) > 0.999, "{text}: {}", cos(v, alone));
    }
    // And the texts are told apart: no vector is another's.
    assert!(cos(&batch[1], &batch[3]) < 0.9);
}

/// Several sessions share a batch between threads and give back what one session does, in
/// input order; a batch smaller than the pool still works.
#[test]
fn a_pool_of_sessions_answers_as_one_session_does() {
    let one = OnnxEmbedder::load_sessions(&common::model_dir(), &common::ort_lib(), 1)
        .expect("model (run `make setup`)");
    let three = OnnxEmbedder::load_sessions(&common::model_dir(), &common::ort_lib(), 3).unwrap();
    let texts: Vec<String> = (1..=7)
        .map(|n| format!("Article {n}: {}", "the State shall ".repeat(n)))
        .collect();
    let a = one.embed_raw(&texts).unwrap();
    let b = three.embed_raw(&texts).unwrap();
    assert_eq!(b.len(), texts.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert!(cos(x, y) > 0.9999, "text {i}: {}", cos(x, y));
    }
    let pair = three.embed_raw(&texts[..2]).unwrap();
    assert!(cos(&pair[1], &a[1]) > 0.9999);
    assert!(
        cos(&a[0], &a[6]) < 0.99,
        "different texts, different vectors"
    );
}

#[test]
fn a_missing_model_is_a_clear_error() {
    let err = OnnxEmbedder::load(
        std::path::Path::new("/nonexistent/model"),
        &common::ort_lib(),
    )
    .err()
    .expect("no model there")
    .to_string();
    assert!(err.contains("NYAYA_MODEL_DIR"), "{err}");
}

#[sqlx::test(migrator = "nyaya::db::MIGRATOR")]
async fn ingest_embeds_every_chunk_and_a_model_change_reembeds(pool: PgPool) {
    let mut cfg = common::config(&pool);
    cfg.no_embed = false;
    let out = nyaya::ingest::ingest_file(&pool, &cfg, &common::real_pdf())
        .await
        .unwrap();
    let s = &out.summary;
    assert!(s.changed);
    assert_eq!(s.embedded, s.chunks);
    assert_eq!(s.model, "sentence-transformers/all-MiniLM-L6-v2@int8");
    let (n, dims): (i64, i32) = sqlx::query_as(
        "SELECT count(*), min(vector_dims(embedding)) FROM chunks WHERE embedding_model = $1",
    )
    .bind(&s.model)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!((n as usize, dims), (s.chunks, 384));

    // The stored vectors mean something: the nearest chunk to this question is Article 21A.
    let e = OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib).unwrap();
    let q = nyaya::embed::to_pgvector(
        &e.embed_query("Is education a fundamental right for children?")
            .unwrap(),
    );
    let nearest: String = sqlx::query_scalar(
        "SELECT ref_id FROM chunks ORDER BY embedding::vector(384) <=> $1::vector(384) LIMIT 1",
    )
    .bind(&q)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(nearest, "21A");

    // Every quotable clause span has its vector too, from the same model, and it is the
    // vector the answer step would compute for that text.
    let spans = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM span_vectors WHERE model_id = $1")
            .bind(&s.model)
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    let n_spans = spans().await;
    assert!(n_spans > 2000, "{n_spans} span vectors");
    let (text, stored): (String, Vec<f32>) = sqlx::query_as(
        "SELECT text, embedding FROM span_vectors WHERE text LIKE '%No person who is arrested shall be detained%' ORDER BY length(text) LIMIT 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let fresh = e.embed_raw(std::slice::from_ref(&text)).unwrap().remove(0);
    let cosine: f32 = fresh.iter().zip(&stored).map(|(a, b)| a * b).sum();
    assert!(
        cosine > 0.999,
        "stored and fresh span vectors differ: {cosine}"
    );

    // The question bank is embedded with the corpus, so that no process's first question
    // waits for it, by the model every search embeds with.
    let bank_rows = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM bank_vectors WHERE model_id = $1")
            .bind(&s.model)
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    let banked = bank_rows().await;
    assert!(banked > 4000, "{banked} bank vectors");
    let (question, stored): (String, Vec<f32>) = sqlx::query_as(
        "SELECT text, embedding FROM bank_vectors WHERE model_id = $1 ORDER BY md5(text) LIMIT 1",
    )
    .bind(&s.model)
    .fetch_one(&pool)
    .await
    .unwrap();
    let fresh = e
        .embed_raw(std::slice::from_ref(&question))
        .unwrap()
        .remove(0);
    let cosine: f32 = fresh.iter().zip(&stored).map(|(a, b)| a * b).sum();
    assert!(
        cosine > 0.999,
        "stored and fresh bank vectors differ: {cosine}"
    );

    // The pass `nyaya serve` runs after it starts answering embeds only what lacks a vector
    // and loads the lot into the answer step's cache.
    sqlx::query("DELETE FROM span_vectors WHERE text LIKE '%President%'")
        .execute(&pool)
        .await
        .unwrap();
    let missing = n_spans - spans().await;
    assert!(missing > 20, "{missing} spans deleted");
    let models = nyaya::search::Models {
        embedder: Some(std::sync::Arc::new(e)),
        ..Default::default()
    };
    let embedded = nyaya::ingest::span_pass(pool.clone(), cfg.clone(), models.clone()).await;
    assert_eq!(embedded as i64, missing);
    assert_eq!(spans().await, n_spans);
    assert_eq!(models.passage_cache.len() as i64, n_spans, "all loaded");
    assert_eq!(
        nyaya::ingest::span_pass(pool.clone(), cfg.clone(), models).await,
        0,
        "a second pass finds nothing to do"
    );
    // A replica that started before another replica's pass finished holds no span vectors;
    // its own pass embeds nothing and still loads them all.
    let late = nyaya::search::Models {
        embedder: common::embedder(),
        ..Default::default()
    };
    assert_eq!(
        nyaya::ingest::span_pass(pool.clone(), cfg.clone(), late.clone()).await,
        0
    );
    assert_eq!(late.passage_cache.len() as i64, n_spans);

    // Same file, same model: nothing to do.
    let again = nyaya::ingest::ingest_file(&pool, &cfg, &common::real_pdf())
        .await
        .unwrap();
    assert!(!again.summary.changed);
    assert_eq!(again.summary.embedded, 0);
    assert_eq!(spans().await, n_spans, "no span embedded twice");
    assert_eq!(bank_rows().await, banked, "no bank question embedded twice");

    // Vectors from another model on a few chunks: only those are embedded again, the corpus
    // itself is untouched.
    sqlx::query("UPDATE chunks SET embedding_model = 'some/other-model' WHERE id IN (SELECT id FROM chunks ORDER BY id LIMIT 7)")
        .execute(&pool)
        .await
        .unwrap();
    let docs_before: i64 = sqlx::query_scalar("SELECT count(*) FROM documents")
        .fetch_one(&pool)
        .await
        .unwrap();
    let redo = nyaya::ingest::ingest_file(&pool, &cfg, &common::real_pdf())
        .await
        .unwrap();
    assert!(!redo.summary.changed);
    assert_eq!(redo.summary.embedded, 7);
    let stale: i64 =
        sqlx::query_scalar("SELECT count(*) FROM chunks WHERE embedding_model IS DISTINCT FROM $1")
            .bind(&s.model)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(stale, 0);
    let docs_after: i64 = sqlx::query_scalar("SELECT count(*) FROM documents")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(docs_before, docs_after);
}

/// The file the test binaries share vectors through reads back what it wrote, and a torn file
/// reads as nothing rather than as wrong vectors.
#[test]
fn the_shared_vector_file_reads_back_what_it_wrote() {
    use common::vector_cache;
    let model = format!("test/format-check@{}", std::process::id());
    let map = std::collections::HashMap::from([
        ("a text".to_string(), vec![0.5f32, -1.0]),
        ("another".to_string(), vec![]),
    ]);
    vector_cache::save(&model, &map);
    assert_eq!(vector_cache::load(&model), map);
    std::fs::remove_file(vector_cache::path(&model)).unwrap();
    assert!(vector_cache::parse(&[5, 0, 0, 0, b'a']).is_none());
    // Texts it lacks are embedded once and added; texts it has are not embedded again.
    let first = vector_cache::vectors_of(&model, &["x".to_string()], |t| {
        assert_eq!(t, ["x".to_string()]);
        vec![vec![1.0]]
    });
    let again = vector_cache::vectors_of(&model, &["x".to_string(), "y".to_string()], |t| {
        assert_eq!(t, ["y".to_string()], "only what the file lacks");
        vec![vec![2.0]]
    });
    assert_eq!(
        (first, again),
        (vec![vec![1.0]], vec![vec![1.0], vec![2.0]])
    );
    std::fs::remove_file(vector_cache::path(&model)).unwrap();
}

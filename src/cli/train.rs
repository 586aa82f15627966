//! `nyaya train` (the learned second stage) and `nyaya train-adapter` (the query adapter).

use std::process::ExitCode;

use nyaya::config::Config;
use nyaya::db;
use nyaya::error::AppError;
use nyaya::search::SearchOptions;

use super::models::load_models;
use super::print::{print_fitted, print_mined};

/// `nyaya train-adapter`: embed, hold out, fit; write (or `--check` against) the shipped
/// query adapter.
pub(crate) async fn train_adapter_command(
    cfg: &Config,
    check: bool,
    out: &std::path::Path,
) -> Result<ExitCode, AppError> {
    use nyaya::search::adapter::{matrix_bytes, AdapterInfo, QueryAdapter};
    use nyaya::train::{self, adapter};
    let started = std::time::Instant::now();
    let pool = db::connect(&cfg.database_url).await?;
    let embedder = nyaya::embed::OnnxEmbedder::load(&cfg.model_dir, &cfg.ort_lib)?;
    let train::AdapterData {
        problem,
        held_out,
        edition,
        corpus_sha256,
        data_sha256,
    } = train::adapter_problem(&pool, &embedder).await?;
    let questions = problem.questions.nrows();
    eprintln!(
        "{questions} written questions ({held_out} held out: near-copies of evaluated questions), {} chunks of {edition}",
        problem.chunks.nrows()
    );
    let fitted = tokio::task::spawn_blocking(move || adapter::fit(&problem))
        .await
        .map_err(|e| AppError::Resource(format!("fitting failed: {e}")))?;
    let matrix: Vec<f32> = fitted.matrix.iter().copied().collect();
    let bytes = matrix_bytes(&matrix);
    let info = AdapterInfo {
        model_id: nyaya::embed::Embedder::manifest(&embedder).id.clone(),
        dim: fitted.matrix.nrows(),
        data_sha256,
        questions,
        held_out,
        edition,
        corpus_sha256,
        l2: adapter::L2,
        temperature: adapter::TEMPERATURE,
        steps: adapter::STEPS,
        learning_rate: adapter::LEARNING_RATE,
        loss: fitted.loss,
        top1_before: fitted.top1_before,
        top1_after: fitted.top1_after,
        matrix_sha256: nyaya_ingest::sha256_hex(&bytes),
    };
    eprintln!(
        "fitted in {} steps: loss {:.4}, training top-1 chunk {:.3} -> {:.3} ({:.0} s in all)",
        info.steps,
        info.loss,
        info.top1_before,
        info.top1_after,
        started.elapsed().as_secs_f64()
    );
    if check {
        let shipped = QueryAdapter::builtin().map_err(AppError::Resource)?;
        let d = adapter::distance(&matrix, shipped.matrix());
        let same_data = shipped.info.data_sha256 == info.data_sha256;
        let same_corpus = shipped.info.corpus_sha256 == info.corpus_sha256;
        println!(
            "refitted vs shipped: data {}, corpus {}, largest entry difference {d:.2e} (tolerance {})",
            if same_data { "identical" } else { "differs" },
            if same_corpus {
                "identical"
            } else {
                "differs (the edition's chunks changed since the fit: `make train` refits)"
            },
            adapter::TOLERANCE
        );
        return Ok(if same_data && d <= adapter::TOLERANCE {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let json = serde_json::to_string_pretty(&info).unwrap_or_default() + "\n";
    train::write(out, &json)?;
    let bin = out.with_extension("bin");
    std::fs::write(&bin, &bytes)
        .map_err(|e| AppError::Resource(format!("{}: {e}", bin.display())))?;
    println!("wrote {} and {}", out.display(), bin.display());
    Ok(ExitCode::SUCCESS)
}

/// `nyaya train`: generate, mine, fit; write (or `--check` against) the shipped model.
pub(crate) async fn train_command(
    cfg: &Config,
    defaults: &SearchOptions,
    check: bool,
    questions_path: &std::path::Path,
    models_root: &std::path::Path,
    teacher: nyaya::train::Teacher,
) -> Result<ExitCode, AppError> {
    use nyaya::search::ltr::{Heads, LtrModel};
    use nyaya::train;
    let started = std::time::Instant::now();
    let pool = db::connect(&cfg.database_url).await?;
    let held_out = train::held_out_questions()?;
    let (questions, dropped) = train::generate(&pool, &held_out, teacher).await?;
    let text = train::to_jsonl(&questions);
    let sha = nyaya_ingest::sha256_hex(text.as_bytes());
    eprintln!(
        "generated {} questions ({dropped} dropped: they match golden or paraphrase questions), sha256 {sha}",
        questions.len()
    );
    let models = load_models(cfg, nyaya::search::Mode::HybridRerank)?;
    let mut fitted: Vec<(Heads, LtrModel)> = Vec::new();
    for heads in Heads::ALL {
        eprintln!("== heads: {heads:?}");
        let mined = train::mine(&pool, &models, defaults, heads, &questions).await?;
        print_mined(&mined, questions.len());
        let model = train::train(&mined, heads, questions.len(), sha.clone());
        print_fitted(&model, started);
        fitted.push((heads, model));
    }
    // Questions in an Indian script: fitted on the written Hindi questions, whose heads need
    // the multilingual model and its cross-lingual bank.
    if models.multilingual.is_some() {
        let heads = Heads::IndianScript;
        eprintln!("== heads: {heads:?}");
        models
            .preload_question_bank(&pool, nyaya::search::bank::Sources::CrossLingual)
            .await;
        let (hindi, dropped) = train::written_hindi(&train::held_out_hindi_questions()?)?;
        let hindi_sha = nyaya_ingest::sha256_hex(train::to_jsonl(&hindi).as_bytes());
        eprintln!(
            "{} written Hindi questions ({dropped} dropped: asked by a set that judges them), sha256 {hindi_sha}",
            hindi.len()
        );
        let mined = train::mine(&pool, &models, defaults, heads, &hindi).await?;
        print_mined(&mined, hindi.len());
        let model = train::train(&mined, heads, hindi.len(), hindi_sha);
        print_fitted(&model, started);
        fitted.push((heads, model));
    } else {
        eprintln!("no multilingual model: the Indian-script model is not refitted");
    }
    if check {
        let mut all_match = true;
        for (heads, model) in &fitted {
            let shipped = LtrModel::builtin(*heads);
            let d = train::distance(model, shipped);
            let same_data = shipped.training.data_sha256 == model.training.data_sha256;
            println!(
                "{heads:?}: retrained vs shipped: data {}, largest weight difference {d:.2e} (tolerance {})",
                if same_data { "identical" } else { "differs" },
                train::TOLERANCE
            );
            all_match &= same_data && d <= train::TOLERANCE;
        }
        return Ok(if all_match {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    train::write(questions_path, &text)?;
    println!("wrote {}", questions_path.display());
    for (heads, model) in &fitted {
        let path = models_root.join(heads.shipped_path());
        let json = serde_json::to_string_pretty(model).unwrap_or_default() + "\n";
        train::write(&path, &json)?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

//! The search's settings from flags and environment (each flag has an env var). The binary
//! flattens them next to [`crate::config::Config`]; they live here so that `config` need not
//! know the search's types.

use clap::Args;

use super::rerank::SecondStage;
use super::{Mode, SearchOptions};

/// What a search does when a request does not say.
#[derive(Debug, Clone, Args)]
pub struct SearchSettings {
    /// The search mode when a request names none.
    #[arg(
        long,
        env = "NYAYA_SEARCH_MODE",
        global = true,
        default_value_t = SearchOptions::default().mode
    )]
    pub search_mode: Mode,

    /// What the `+rerank` modes run: rescore (offline, the default), cross-encoder (needs
    /// NYAYA_RERANKER_DIR) or none.
    #[arg(
        long,
        env = "NYAYA_SECOND_STAGE",
        global = true,
        value_enum,
        default_value_t = SearchOptions::default().second_stage
    )]
    pub second_stage: SecondStage,

    /// How far the question bank (the questions of data/train/written.jsonl) moves the learned
    /// second stage's order; 0 switches it off (ADR 0008).
    #[arg(long, env = "NYAYA_BANK_WEIGHT", global = true, default_value_t = SearchOptions::default().bank_weight)]
    pub bank_weight: f64,

    /// How far the same bank, as the multilingual model reads it, moves an English question's
    /// learned order beside the English model's (ADR 0008, stop 65); 0 switches it off.
    #[arg(long, env = "NYAYA_E5_BANK_WEIGHT", global = true, default_value_t = SearchOptions::default().e5_bank_weight)]
    pub e5_bank_weight: f64,

    /// How far the question bank, read across languages by the multilingual model (its English
    /// questions), moves the fused order of a question in an Indian script; 0 switches it off
    /// (ADR 0013).
    #[arg(long, env = "NYAYA_MULTILINGUAL_BANK_WEIGHT", global = true, default_value_t = SearchOptions::default().multilingual_bank_weight)]
    pub multilingual_bank_weight: f64,

    /// Re-order the fused head of a question in an Indian script with the learned model fitted
    /// on the written Hindi questions (`data/second_stage_indian_script.json`); off (the
    /// default), the multilingual bank's weight moves the fused order (ADR 0013, stop 54).
    #[arg(long, env = "NYAYA_INDIAN_SCRIPT_RANKER", global = true, default_value_t = SearchOptions::default().indian_script_ranker, action = clap::ArgAction::Set)]
    pub indian_script_ranker: bool,

    /// Refuse a question whose closest questions in the bank are ones the text does not answer
    /// (data/train/out_of_scope.jsonl against data/train/written.jsonl; ADR 0005).
    #[arg(long, env = "NYAYA_SCOPE_BANK", global = true, default_value_t = SearchOptions::default().scope_bank, action = clap::ArgAction::Set)]
    pub scope_bank: bool,

    /// Search an English question's vector as the query adapter maps it, and score the quoted
    /// clauses with it (data/query_adapter.*, fitted by `nyaya train-adapter`; ADR 0014). Off by
    /// default: measured, it did not carry to the golden test split.
    #[arg(long, env = "NYAYA_QUERY_ADAPTER", global = true, default_value_t = SearchOptions::default().query_adapter, action = clap::ArgAction::Set)]
    pub query_adapter: bool,

    /// Fuse the multilingual model's list (multilingual-e5, through its ONNX encoder) with an
    /// English question's legs (ADR 0008). Needs the multilingual model (NYAYA_MULTILINGUAL).
    #[arg(long, env = "NYAYA_SECOND_DENSE", global = true, default_value_t = SearchOptions::default().second_dense, action = clap::ArgAction::Set)]
    pub second_dense: bool,

    /// Search a many-part question's parts too, fusing their lists with the whole's (off by
    /// default since stop 51: ADR 0004).
    #[arg(long, env = "NYAYA_SEARCH_SPLIT", global = true, default_value_t = SearchOptions::default().split, action = clap::ArgAction::Set)]
    pub search_split: bool,

    /// Reciprocal rank fusion's k (10 chosen by `make ablate`, ADR 0006).
    #[arg(long, env = "NYAYA_RRF_K", global = true, default_value_t = SearchOptions::default().rrf_k)]
    pub rrf_k: f64,

    /// Chunks each retrieval leg returns before fusion.
    #[arg(long, env = "NYAYA_SEARCH_DEPTH", global = true, default_value_t = SearchOptions::default().depth)]
    pub search_depth: usize,

    /// Longest query accepted, in characters.
    #[arg(
        long,
        env = "NYAYA_MAX_QUERY_CHARS",
        global = true,
        default_value_t = SearchOptions::default().max_query_chars
    )]
    pub max_query_chars: usize,

    /// Best-chunk similarity below which a search says the text does not cover the question.
    #[arg(long, env = "NYAYA_REFUSAL_THRESHOLD", global = true, default_value_t = SearchOptions::default().refusal_threshold)]
    pub refusal_threshold: f64,

    /// The same for questions the multilingual model searched (ADR 0013).
    #[arg(long, env = "NYAYA_MULTILINGUAL_REFUSAL_THRESHOLD", global = true, default_value_t = SearchOptions::default().multilingual_refusal_threshold)]
    pub multilingual_refusal_threshold: f64,
}

impl SearchSettings {
    /// A search's options with these settings, over `edition` (`None`: the newest stored).
    pub fn options(&self, edition: Option<String>) -> SearchOptions {
        SearchOptions {
            mode: self.search_mode,
            second_stage: self.second_stage,
            bank_weight: self.bank_weight,
            e5_bank_weight: self.e5_bank_weight,
            multilingual_bank_weight: self.multilingual_bank_weight,
            indian_script_ranker: self.indian_script_ranker,
            scope_bank: self.scope_bank,
            query_adapter: self.query_adapter,
            second_dense: self.second_dense,
            split: self.search_split,
            rrf_k: self.rrf_k,
            depth: self.search_depth,
            max_query_chars: self.max_query_chars,
            refusal_threshold: self.refusal_threshold,
            multilingual_refusal_threshold: self.multilingual_refusal_threshold,
            edition,
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        search: SearchSettings,
    }

    #[test]
    fn no_flags_give_the_default_options() {
        let parsed = Cli::parse_from(["nyaya"]).search.options(None);
        let default = SearchOptions::default();
        assert_eq!(format!("{parsed:?}"), format!("{default:?}"));
    }

    #[test]
    fn a_flag_reaches_the_options() {
        let cli = Cli::parse_from(["nyaya", "--bank-weight", "0", "--search-depth", "7"]);
        let opts = cli.search.options(Some("2022".into()));
        assert_eq!((opts.bank_weight, opts.depth), (0.0, 7));
        assert_eq!(opts.edition.as_deref(), Some("2022"));
    }
}

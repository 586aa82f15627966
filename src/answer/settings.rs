//! The answer pipeline's settings from flags and environment (each flag has an env var). The
//! binary flattens them next to [`crate::config::Config`]; they live here so that `config`
//! need not know the answer's types.

use clap::Args;

use super::extract::QuoteWeights;
use super::AnswerMode;

/// How answers are written when a request does not say.
#[derive(Debug, Clone, Copy, PartialEq, Default, Args)]
pub struct AnswerSettings {
    /// How answers are written when a request does not say: extractive (quotes only, no
    /// model) or llm (prose over the quotes; needs NYAYA_LLM_BASE_URL).
    #[arg(long, env = "NYAYA_ANSWER_MODE", global = true, value_enum, default_value_t = AnswerMode::default())]
    pub answer_mode: AnswerMode,

    /// How clause spans compete for a quote and how close "also relevant" must come:
    /// "overlap,rank_prior[,also_gap[,asks[,lead_gap]]]" (ADR 0007).
    #[arg(long, env = "NYAYA_QUOTE_WEIGHTS", global = true, default_value_t = QuoteWeights::default())]
    pub quote_weights: QuoteWeights,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        answer: AnswerSettings,
    }

    #[test]
    fn no_flags_give_the_default() {
        assert_eq!(Cli::parse_from(["nyaya"]).answer, AnswerSettings::default());
    }

    #[test]
    fn quote_weights_keep_the_defaults_left_off() {
        let cli = Cli::parse_from([
            "nyaya",
            "--quote-weights",
            "0.5,0.2",
            "--answer-mode",
            "llm",
        ]);
        let w = cli.answer.quote_weights;
        assert_eq!((w.overlap, w.rank_prior), (0.5, 0.2));
        assert_eq!(w.also_gap, QuoteWeights::default().also_gap);
        assert_eq!(cli.answer.answer_mode, AnswerMode::Llm);
    }

    #[test]
    fn a_malformed_weight_is_refused() {
        let parsed = Cli::try_parse_from(["nyaya", "--quote-weights", "0.5"]);
        assert!(parsed.is_err());
    }
}

//! `nyaya eligible`, and the reading of `--fact id=value` and yes/no that `nyaya ask` shares.

use std::process::ExitCode;

use nyaya::error::AppError;

/// `--fact id=value`: yes/no or a number.
pub(super) fn parse_fact(f: &str) -> Result<(String, nyaya::eligibility::FactValue), AppError> {
    use nyaya::eligibility::FactValue;
    let (k, v) = f
        .split_once('=')
        .ok_or_else(|| AppError::BadRequest(format!("--fact {f:?}: expected id=value")))?;
    let value = match parse_yes_no(v) {
        Ok(b) => FactValue::Bool(b),
        Err(_) => FactValue::Number(v.trim().parse().map_err(|_| {
            AppError::BadRequest(format!("--fact {f:?}: the value is yes, no or a number"))
        })?),
    };
    Ok((k.trim().to_string(), value))
}

pub(crate) fn parse_yes_no(s: &str) -> Result<bool, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" => Ok(true),
        "no" | "n" | "false" => Ok(false),
        other => Err(format!("expected yes or no, not {other:?}")),
    }
}

/// `nyaya eligible`: the checker on the command line (no database needed).
pub(crate) fn eligible_command(
    office: Option<String>,
    age: Option<f64>,
    citizen: Option<bool>,
    fact_args: Vec<String>,
    question: Option<String>,
    list: bool,
    json: bool,
) -> Result<ExitCode, AppError> {
    use nyaya::eligibility::{self, Catalogue, FactValue, Status};
    let c = Catalogue::builtin();
    let reading = question
        .as_deref()
        .map(|q| nyaya::eligibility_text::read(c, q));
    let office = office.or_else(|| reading.as_ref()?.office.map(|o| o.id.clone()));
    if list || office.is_none() {
        println!("offices:");
        for o in &c.offices {
            println!("  {:<22} {} ({})", o.id, o.name, o.aliases.join(", "));
        }
        println!("facts (--fact id=value):");
        for f in &c.facts {
            println!("  {:<28} {}", f.id, f.question);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let name = office.unwrap_or_default();
    let o = c.office(&name).ok_or_else(|| {
        AppError::BadRequest(format!(
            "no office {name:?}; `nyaya eligible --list` lists them"
        ))
    })?;
    let mut facts = reading.map(|r| r.facts).unwrap_or_default();
    if let Some(a) = age {
        facts.insert("age".into(), FactValue::Number(a));
    }
    if let Some(b) = citizen {
        facts.insert("citizen".into(), FactValue::Bool(b));
    }
    for f in fact_args {
        let (k, v) = parse_fact(&f)?;
        facts.insert(k, v);
    }
    eligibility::check_facts(c, &facts).map_err(AppError::BadRequest)?;
    let v = eligibility::check(c, o, &facts);
    if json {
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    let verdict = match v.verdict {
        eligibility::VerdictKind::NotEligible => "not eligible",
        eligibility::VerdictKind::NeedMoreInfo => "need more information",
        eligibility::VerdictKind::LikelyEligible => "likely eligible",
    };
    println!("{}: {verdict}", v.office_name);
    for r in &v.criteria {
        let mark = match r.status {
            Status::Met => "✓",
            Status::NotMet => "✗",
            Status::Unknown => "?",
            Status::Note => "·",
        };
        println!(
            "  {mark} {}{}: \"{}\" {}",
            r.ref_id,
            r.clause,
            r.quote,
            if r.detail.is_empty() {
                String::new()
            } else {
                format!("({})", r.detail)
            }
        );
    }
    if !v.missing_facts.is_empty() {
        println!("still needed:");
        for m in &v.missing_facts {
            println!("  --fact {}=…   {}", m.id, m.question);
        }
    }
    println!("{}", v.note);
    Ok(ExitCode::SUCCESS)
}

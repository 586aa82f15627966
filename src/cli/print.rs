//! Output for a terminal: answers, provisions, search hits, and what `nyaya train` mined and
//! fitted.

/// An answer for a terminal: the text, then each citation with its page and notes.
pub(super) fn print_answer(r: &nyaya::answer::AskResponse) {
    if r.refused {
        println!("{}", r.answer);
        if let Some(reason) = &r.refusal_reason {
            println!("({reason})");
        }
    } else {
        println!("{}", r.answer);
        if !r.citations.is_empty() {
            println!();
        }
        for c in &r.citations {
            println!(
                "[{}] {} — {} (p.{}, {})",
                c.n, c.label, c.title, c.page, c.edition
            );
            for a in &c.amendments {
                println!("     {}", a.note);
            }
        }
        for s in &r.suggestions {
            println!("  ? {}", s.question);
        }
    }
    if r.degraded {
        println!(
            "(degraded to quotes: {})",
            r.degraded_reason.as_deref().unwrap_or("")
        );
    }
    println!(
        "— {} · {} · request {} · {:.0} ms · the text of the Constitution, not legal advice",
        r.route.as_str(),
        r.mode.as_str(),
        r.request_id,
        r.timings_ms.total
    );
}

/// A provision for a terminal: heading, pages, text, cross-references and notes.
pub(super) fn print_provision(p: &nyaya::store::ProvisionView) {
    println!("{}", p.heading);
    println!(
        "Pages {}–{} of the official PDF ({})",
        p.pages.start, p.pages.end, p.edition
    );
    println!();
    println!("{}", p.text);
    let out: Vec<String> = p
        .cross_refs
        .outgoing
        .iter()
        .map(|x| match (&x.to, &x.to_part) {
            (Some(r), _) => format!("{r}{}", x.clause.as_deref().unwrap_or("")),
            (None, Some(part)) => format!("Part {part}"),
            _ => x.surface.clone(),
        })
        .collect();
    if !out.is_empty() {
        println!();
        println!("Refers to: {}", out.join(", "));
    }
    let mut incoming: Vec<&str> = Vec::new();
    for x in &p.cross_refs.incoming {
        if !incoming.contains(&x.from.as_str()) {
            incoming.push(&x.from);
        }
    }
    if !incoming.is_empty() {
        println!("Referred to by: {}", incoming.join(", "));
    }
    if !p.amendments.is_empty() {
        println!();
        for a in &p.amendments {
            let on = a
                .clause
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            println!("  note{on}: {}", a.raw);
        }
    }
}

/// Search hits for a terminal: rank, provision, page and the legs that found it.
pub(super) fn print_search(r: &nyaya::search::SearchResponse) {
    for (i, hit) in r.results.iter().enumerate() {
        let legs: Vec<String> = hit
            .legs
            .iter()
            .map(|(l, h)| format!("{l:?}#{}", h.rank))
            .collect();
        let how = if hit.pinned {
            "pinned".to_string()
        } else {
            legs.join(" ")
        };
        println!(
            "{:>2}. {} — {} (p.{}) [{how}]",
            i + 1,
            hit.ref_id,
            hit.title,
            hit.page
        );
    }
    for s in &r.supporting {
        println!("    + {} — {} ({})", s.ref_id, s.title, s.relation);
    }
    if !r.expansion.added.is_empty() || !r.expansion.refs.is_empty() {
        println!(
            "glossary: {} → {} {}",
            r.expansion.matched.join(", "),
            r.expansion.added.join("; "),
            r.expansion.refs.join(" ")
        );
    }
    if !r.coverage.covered {
        println!(
            "not covered: {}",
            r.coverage.reason.as_deref().unwrap_or("")
        );
    }
    println!("({} mode, {:.1} ms)", r.mode, r.timings_ms.total);
}

/// The fitted model's loss and weights, on stderr.
pub(super) fn print_fitted(model: &nyaya::search::ltr::LtrModel, started: std::time::Instant) {
    eprintln!(
        "fitted in {} Newton steps: loss {:.4}, training top1 {:.3} ({:.0} s so far)",
        model.training.iterations,
        model.training.loss,
        model.training.top1,
        started.elapsed().as_secs_f64()
    );
    for (name, w) in model.features.iter().zip(&model.weights) {
        eprintln!("  {name:<26} {w:>8.3}");
    }
}

/// What mining found, per template: how often the first stage alone put the source first, and
/// in the head.
pub(super) fn print_mined(mined: &nyaya::train::Mined, questions: usize) {
    eprintln!(
        "mined {} heads of {questions} ({} sources not in the head)",
        mined.lists.len(),
        mined.missed
    );
    eprintln!("template          questions  first-stage top1  in head");
    for (t, (n, top, head)) in &mined.by_template {
        eprintln!(
            "{t:<17} {n:>9} {:>17.3} {:>8.3}",
            *top as f64 / *n as f64,
            *head as f64 / *n as f64
        );
    }
}

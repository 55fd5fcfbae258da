//! The translated rules documents (`docs/rules/<kind>.<lang>.md`) say what the English ones say:
//! the same outline, the same decisions, the same tables, and every name a client sends or reads
//! (`backticked`) spelt exactly as in English. A translation that drops a rule fails here.

use std::collections::BTreeSet;

use crate::language::Language;
use crate::registry;

/// The level of each heading, in order (`## A turn` is 2). Headings are compared by level only:
/// their words are translated.
fn outline(doc: &str) -> Vec<usize> {
    doc.lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| line.chars().take_while(|c| *c == '#').count())
        .collect()
}

/// Every `code span`: command, event, option, field, card and error names, values.
fn code_spans(doc: &str) -> BTreeSet<&str> {
    doc.split('`').skip(1).step_by(2).collect()
}

/// Table rows, header and separator lines included.
fn table_rows(doc: &str) -> usize {
    doc.lines().filter(|line| line.starts_with('|')).count()
}

fn translations() -> impl Iterator<Item = (&'static str, Language, &'static str, &'static str)> {
    registry::all().iter().flat_map(|game| {
        Language::ALL
            .into_iter()
            .filter(|l| *l != Language::DEFAULT)
            .map(move |language| {
                let translated = game.rules_in(language).unwrap_or_else(|| {
                    panic!("{}: no rules document in `{}`", game.kind(), language.tag())
                });
                (game.kind(), language, game.rules(), translated)
            })
    })
}

#[test]
fn every_kind_has_a_german_document() {
    for game in registry::all() {
        let german = game.rules_in(Language::De);
        assert!(german.is_some(), "{}: no German rules", game.kind());
        assert_ne!(
            german,
            Some(game.rules()),
            "{}: German is English",
            game.kind()
        );
    }
}

#[test]
fn translations_have_the_english_outline() {
    for (kind, language, english, translated) in translations() {
        let (en, tr) = (outline(english), outline(translated));
        assert!(en.len() > 3, "{kind}: an outline to compare");
        assert_eq!(en, tr, "{kind}: heading levels in `{}`", language.tag());
    }
}

#[test]
fn translations_name_exactly_what_english_names() {
    for (kind, language, english, translated) in translations() {
        let (en, tr) = (code_spans(english), code_spans(translated));
        let missing: Vec<_> = en.difference(&tr).collect();
        let extra: Vec<_> = tr.difference(&en).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{kind} in `{}`: missing {missing:?}, not in English {extra:?}",
            language.tag()
        );
    }
}

#[test]
fn translations_keep_every_decision_and_table_row() {
    // The German word for the marker; another language adds its own here.
    let marker = |language: Language| match language {
        Language::En => "**Decision**",
        Language::De => "**Entscheidung**",
    };
    for (kind, language, english, translated) in translations() {
        assert_eq!(
            english.matches(marker(Language::En)).count(),
            translated.matches(marker(language)).count(),
            "{kind}: decisions in `{}`",
            language.tag()
        );
        assert_eq!(
            table_rows(english),
            table_rows(translated),
            "{kind}: table rows in `{}`",
            language.tag()
        );
    }
}

#[test]
fn the_checks_see_what_they_compare() {
    let doc = "# T\n\nText `A` and `B`.\n\n## S\n\n| a | b |\n|---|---|\n### U\n";
    assert_eq!(outline(doc), vec![1, 2, 3]);
    assert_eq!(code_spans(doc), BTreeSet::from(["A", "B"]));
    assert_eq!(table_rows(doc), 2);
}

//! The languages a game's rules document is written in. Choosing one for a request (HTTP's
//! `Accept-Language`) is the API's business; the domain only says which documents exist.

/// A language of the rules documents, by its primary language subtag (RFC 5646).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// English: every kind's rules exist in it, and it is what a client gets when it asks for
    /// nothing or for a language a document does not exist in.
    En,
    De,
}

impl Language {
    /// Every language, the default first.
    pub const ALL: [Language; 2] = [Language::En, Language::De];
    pub const DEFAULT: Language = Language::En;

    /// The language tag, as `Content-Language` writes it.
    pub fn tag(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::De => "de",
        }
    }

    /// The language of a primary language subtag, in any case (`DE` → German).
    pub fn from_primary_subtag(subtag: &str) -> Option<Language> {
        Language::ALL
            .into_iter()
            .find(|l| l.tag().eq_ignore_ascii_case(subtag))
    }
}

#[cfg(test)]
mod tests {
    use super::Language;

    #[test]
    fn tags_round_trip_and_ignore_case() {
        for language in Language::ALL {
            assert_eq!(
                Language::from_primary_subtag(language.tag()),
                Some(language)
            );
        }
        assert_eq!(Language::from_primary_subtag("DE"), Some(Language::De));
        assert_eq!(Language::from_primary_subtag("fr"), None);
        assert_eq!(Language::ALL[0], Language::DEFAULT);
    }
}

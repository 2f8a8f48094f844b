//! The rules of one record of a dataset: its own (a CSV `rules` column) or the run's
//! default (`--rules`), with its jigsaw regions (a `regions` column or a line's second
//! field), made into a rule table. Shared by every command that reads datasets under
//! rules (`solve`, `verify`, `bench`), so that a record means the same everywhere.

use super::{Regions, RuleSet, Variant};

/// The rules a record is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordRules {
    /// The rule set.
    pub rules: RuleSet,
    /// The jigsaw regions, with [`super::Rule::Jigsaw`].
    pub regions: Option<Regions>,
}

impl RecordRules {
    /// Classic rules, the band engine's case.
    pub fn is_classic(&self) -> bool {
        self.rules.is_classic() && self.regions.is_none()
    }
}

/// Read a record's rules: `rules` as found (a rule list; empty: `default`) and
/// `regions` as found (81 region symbols; empty: none). The error is the record's
/// reason to be invalid, naming what is wrong (`rules: unknown rule 'y' ...`,
/// `regions: 80 characters, expected 81`, `jigsaw without regions`).
pub fn record_rules(rules: &[u8], regions: &[u8], default: RuleSet) -> Result<RecordRules, String> {
    let text = String::from_utf8_lossy(rules);
    let rules = match text.trim() {
        "" => default,
        list => list.parse().map_err(|e| format!("rules: {e}"))?,
    };
    let jigsaw = rules.contains(super::Rule::Jigsaw);
    let regions = regions.trim_ascii();
    let regions = match (jigsaw, regions.is_empty()) {
        (true, true) => return Err("jigsaw without regions".to_string()),
        (true, false) => Some(Regions::parse(regions).map_err(|e| e.to_string())?),
        (false, true) => None,
        (false, false) => {
            return Err(format!(
                "regions given, but the rules ({rules}) have no jigsaw: add jigsaw to --rules \
                 or to the rules column"
            ))
        }
    };
    Ok(RecordRules { rules, regions })
}

/// Rule tables by rule set, built once each (a jigsaw table per layout: a record's
/// regions are its own, and the last layout's table serves the next record with the
/// same).
#[derive(Debug, Default)]
pub struct Variants {
    built: Vec<Variant>,
    jigsaw: Option<Variant>,
}

impl Variants {
    /// The rule table of `rules`.
    pub fn get(&mut self, rules: &RecordRules) -> &Variant {
        if let Some(regions) = &rules.regions {
            let same = |v: &Variant| v.rules() == rules.rules && v.regions() == Some(regions);
            if self.jigsaw.as_ref().is_some_and(same) {
                return self.jigsaw.as_ref().expect("just checked");
            }
            let table = Variant::new(rules.rules, Some(regions))
                .expect("jigsaw rules with regions make a table");
            return self.jigsaw.insert(table);
        }
        match self.built.iter().position(|v| v.rules() == rules.rules) {
            Some(i) => &self.built[i],
            None => {
                let table =
                    Variant::new(rules.rules, None).expect("rules without jigsaw need no regions");
                self.built.push(table);
                self.built.last().expect("just pushed")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGIONS: &str =
        "111222333111222333111222333444555666444555666444555666777888999777888999777888999";

    #[test]
    fn a_record_s_rules_override_the_default_and_need_their_regions() {
        let x: RuleSet = "x".parse().unwrap();
        let got = record_rules(b"", b"", x).unwrap();
        assert_eq!((got.rules, got.regions), (x, None));
        let got = record_rules(b" anti-king ", b"", x).unwrap();
        assert_eq!(got.rules.to_string(), "anti-king");
        let got = record_rules(b"jigsaw", REGIONS.as_bytes(), x).unwrap();
        assert!(got.regions.is_some() && !got.is_classic());
        assert!(record_rules(b"", b"", RuleSet::CLASSIC)
            .unwrap()
            .is_classic());
        for (rules, regions, error) in [
            ("y", "", "rules: unknown rule 'y'"),
            ("jigsaw", "", "jigsaw without regions"),
            (
                "jigsaw",
                &REGIONS[1..],
                "regions: 80 characters, expected 81",
            ),
            (
                "x",
                REGIONS,
                "regions given, but the rules (x) have no jigsaw",
            ),
        ] {
            let err = record_rules(rules.as_bytes(), regions.as_bytes(), x).unwrap_err();
            assert!(err.starts_with(error), "{err}");
        }
    }

    #[test]
    fn a_jigsaw_table_serves_the_next_record_only_with_the_same_layout_and_rules() {
        let mut variants = Variants::default();
        let mut other = REGIONS.as_bytes().to_vec();
        other.swap(2, 3); // cells 2 and 3 trade regions 1 and 2
        let table = |v: &mut Variants, rules: &[u8], regions: &[u8]| {
            let r = record_rules(rules, regions, RuleSet::CLASSIC).unwrap();
            let got = v.get(&r);
            (got.rules(), got.regions().copied())
        };
        for (rules, regions) in [
            (&b"jigsaw"[..], REGIONS.as_bytes()),
            (b"jigsaw", REGIONS.as_bytes()),
            (b"jigsaw", &other),
            (b"jigsaw,x", &other),
            (b"jigsaw", REGIONS.as_bytes()),
        ] {
            let want = record_rules(rules, regions, RuleSet::CLASSIC).unwrap();
            assert_eq!(
                table(&mut variants, rules, regions),
                (want.rules, want.regions)
            );
        }
    }

    #[test]
    fn tables_are_built_once_per_rule_set() {
        let mut variants = Variants::default();
        let x = record_rules(b"x", b"", RuleSet::CLASSIC).unwrap();
        let k = record_rules(b"anti-knight", b"", RuleSet::CLASSIC).unwrap();
        assert_eq!(variants.get(&x).rules(), x.rules);
        assert_eq!(variants.get(&k).rules(), k.rules);
        assert_eq!(variants.get(&x).rules(), x.rules);
        assert_eq!(variants.built.len(), 2);
        let j = record_rules(b"jigsaw", REGIONS.as_bytes(), RuleSet::CLASSIC).unwrap();
        assert!(variants.get(&j).regions().is_some());
    }
}

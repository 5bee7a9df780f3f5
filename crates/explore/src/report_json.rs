//! A [`Report`] as JSON, so shards run on different machines can be merged
//! (`faultline explore --json`, `faultline explore-merge`). Scenarios travel as share links:
//! the same self-describing form the links in the report use.

use serde_json::{json, Value};

use faultline_scenario::{decode_link, encode_link};
use faultline_sim::SimTime;

use crate::outcome::Finding;
use crate::property::{find, PROPERTIES};
use crate::report::{Report, ReportContext, SeedFailure};

/// Names the JSON layout; bumped if it ever changes incompatibly.
pub const FORMAT: &str = "faultline-explore-report/1";

impl Report {
    /// The report as a JSON value (stable key order).
    pub fn to_json(&self) -> Value {
        let failures: Vec<Value> = self.failures.iter().map(failure_json).collect();
        let skipped: Vec<Value> = self
            .skipped
            .iter()
            .map(|(name, n)| json!({ "property": name, "runs": n }))
            .collect();
        json!({
            "format": FORMAT,
            "base": self.context.base_link,
            "faults": self.context.budget,
            "with_expectations": self.context.with_expectations,
            "first_seed": self.first_seed,
            "runs": self.runs,
            "failures": failures,
            "skipped": skipped,
            "notes": self.notes,
        })
    }

    /// Reads a report written by [`Report::to_json`]; errors name the field that is wrong.
    pub fn from_json(v: &Value) -> Result<Report, String> {
        if v["format"] != FORMAT {
            return Err(format!(
                "`format`: not an explore report (expected \"{FORMAT}\")"
            ));
        }
        let failures = array(v, "failures")?
            .iter()
            .enumerate()
            .map(|(i, f)| failure_from(f).map_err(|e| format!("failures[{i}].{e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let skipped = array(v, "skipped")?
            .iter()
            .enumerate()
            .map(|(i, s)| skipped_from(s).map_err(|e| format!("skipped[{i}].{e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let notes = array(v, "notes")?
            .iter()
            .map(|n| {
                n.as_str()
                    .map(String::from)
                    .ok_or("`notes`: not a list of strings")
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Report {
            context: ReportContext {
                base_link: string(v, "base")?,
                budget: string(v, "faults")?,
                with_expectations: v["with_expectations"]
                    .as_bool()
                    .ok_or("`with_expectations`: expected true or false")?,
            },
            first_seed: number(v, "first_seed")?,
            runs: number(v, "runs")?,
            failures,
            skipped,
            notes,
        })
    }
}

fn failure_json(f: &SeedFailure) -> Value {
    let findings: Vec<Value> = f
        .findings
        .iter()
        .map(
            |x| json!({ "property": x.property, "message": x.message, "at_us": x.at.map(|t| t.0) }),
        )
        .collect();
    json!({ "seed": f.seed, "scenario": encode_link(&f.scenario), "findings": findings })
}

fn failure_from(v: &Value) -> Result<SeedFailure, String> {
    let link = string(v, "scenario")?;
    let scenario = decode_link(&link).map_err(|e| format!("`scenario`: {e}"))?;
    let findings = array(v, "findings")?
        .iter()
        .map(|x| {
            let at = match &x["at_us"] {
                Value::Null => None,
                t => Some(SimTime(t.as_u64().ok_or("`at_us`: expected microseconds")?)),
            };
            Ok(Finding {
                property: string(x, "property")?,
                message: string(x, "message")?,
                at,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(SeedFailure {
        seed: number(v, "seed")?,
        scenario,
        findings,
    })
}

fn skipped_from(v: &Value) -> Result<(&'static str, u64), String> {
    let name = string(v, "property")?;
    let property = find(&name).ok_or_else(|| {
        let names: Vec<&str> = PROPERTIES.iter().map(|p| p.name).collect();
        format!("`property`: `{name}` is not one of {}", names.join(", "))
    })?;
    Ok((property.name, number(v, "runs")?))
}

fn string(v: &Value, key: &str) -> Result<String, String> {
    v[key]
        .as_str()
        .map(String::from)
        .ok_or_else(|| format!("`{key}`: expected a string"))
}

fn number(v: &Value, key: &str) -> Result<u64, String> {
    v[key]
        .as_u64()
        .ok_or_else(|| format!("`{key}`: expected a whole number"))
}

fn array<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    v[key]
        .as_array()
        .ok_or_else(|| format!("`{key}`: expected a list"))
}

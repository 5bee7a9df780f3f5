//! TiKV and PD messages in words, for the log's message view and the space-time diagram:
//! "MsgAppend for region 12 (term 7, 2 entries)" rather than the struct's debug form.

use crate::msg::Kind;
use crate::msg::Msg;
use crate::msg::RaftMsg;

/// How many raft messages of a batch are named one by one before "and N more".
const NAMED_IN_BATCH: usize = 2;

fn raft_words(m: &RaftMsg) -> String {
    let detail = match m.kind {
        Kind::Append if m.entries > 0 => format!(
            "term {}, {} {}",
            m.term,
            m.entries,
            if m.entries == 1 { "entry" } else { "entries" }
        ),
        Kind::AppendResp | Kind::PreVoteResp | Kind::VoteResp if m.flag => {
            format!("term {}, rejected", m.term)
        }
        Kind::Heartbeat => format!("term {}, commit {}", m.term, m.commit),
        _ => format!("term {}", m.term),
    };
    format!("{} for region {} ({detail})", m.kind.name(), m.region)
}

fn batch_words(batch: &[RaftMsg]) -> String {
    let named: Vec<String> = batch.iter().take(NAMED_IN_BATCH).map(raft_words).collect();
    let rest = batch.len().saturating_sub(NAMED_IN_BATCH);
    match (named.is_empty(), rest) {
        (true, _) => "an empty raft batch".to_string(),
        (false, 0) => named.join("; "),
        (false, n) => format!("{}; and {n} more raft messages", named.join("; ")),
    }
}

impl Msg {
    /// The message as a sentence fragment a reader of the log understands.
    pub fn describe(&self) -> String {
        match self {
            Msg::Raft(batch) => batch_words(batch),
            Msg::StoreHeartbeat {
                store,
                leaders,
                peers,
            } => format!("store heartbeat from store {store}: {leaders} leaders, {peers} peers"),
            Msg::RegionHeartbeats(list) => format!(
                "region heartbeats for {} {}",
                list.len(),
                if list.len() == 1 { "region" } else { "regions" }
            ),
            Msg::Propose { region, op: 0, .. } => format!("a write proposed to region {region}"),
            Msg::Propose { region, op, .. } => {
                format!("a transaction request (operation {op}) proposed to region {region}")
            }
            Msg::TransferLeader { region, to_store } => {
                format!("transfer region {region}'s leader to store {to_store}")
            }
            Msg::ReplacePeer {
                region,
                slot,
                store,
            } => format!("replace region {region}'s replica {slot} by one on store {store}"),
            Msg::MovePeer {
                region,
                slot,
                store,
            } => format!("move region {region}'s replica {slot} to store {store}"),
            Msg::Split {
                region,
                at: Some(key),
                ..
            } => format!("split region {region} at key {key}"),
            Msg::Split { region, parts, .. } => format!("split region {region} into {parts}"),
            Msg::LearnerSnapshot { region, index } => {
                format!("a snapshot of region {region} at index {index} for its new learner")
            }
            Msg::PromoteLearner { region } => {
                format!("promote region {region}'s learner to a voter")
            }
            Msg::PrepareMerge { source, target, .. } => {
                format!("merge region {source} into region {target}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_words_not_debug_output() {
        let mut append = RaftMsg::new(12, 0, 1, Kind::Append, 7);
        append.entries = 2;
        let vote = RaftMsg::new(3, 1, 0, Kind::Heartbeat, 4);
        let text = Msg::Raft(vec![append, vote, vote, vote]).describe();
        assert_eq!(
            text,
            "MsgAppend for region 12 (term 7, 2 entries); MsgHeartbeat for region 3 (term 4, commit 0); and 2 more raft messages"
        );
        assert!(!text.contains("RaftMsg {"));
        assert_eq!(
            Msg::RegionHeartbeats(vec![(1, 1)]).describe(),
            "region heartbeats for 1 region"
        );
        assert_eq!(
            Msg::TransferLeader {
                region: 5,
                to_store: 2
            }
            .describe(),
            "transfer region 5's leader to store 2"
        );
    }
}

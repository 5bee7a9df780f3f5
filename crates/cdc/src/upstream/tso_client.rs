//! A PD client's TSO batching, sans-I/O: callers queue what they want a timestamp for, and
//! at most one batch is in flight at a time. Requests that arrive while a batch waits for
//! its answer go out together in the next one. After tikv/pd 7.x `client/tso_dispatcher.go`
//! (`handleDispatcher` collects pending requests up to `defaultMaxTSOBatchSize` and
//! `processRequests` sends them as one `TsoRequest` with `count` and waits for the answer),
//! and TiKV's `components/pd_client/src/tso.rs` (`TimestampOracle`, one stream per store).
//!
//! A batch without an answer within the client's timeout fails as a whole, and a late
//! answer to it is ignored (the dispatcher resets the stream on error). That is what a
//! partition from PD does: nobody waiting gets a timestamp.

use crate::ts::Ts;

/// tikv/pd `client/opt/option.go` `defaultPDTimeout`: a TiDB/TiCDC-side PD request's deadline.
pub const PD_CLIENT_TIMEOUT_MS: u64 = 3_000;
/// tikv `components/pd_client/src/client.rs` `batch_get_tso` (`REQUEST_TIMEOUT`, 2 s): TiKV's.
pub const TIKV_PD_TIMEOUT_MS: u64 = 2_000;
/// tikv/pd `client/tso_client.go` `defaultMaxTSOBatchSize`.
pub const MAX_TSO_BATCH_SIZE: usize = 10_000;

/// A batch to send: its id and how many timestamps it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TsoBatch {
    /// Batch id (unique per client).
    pub batch: u64,
    /// Timestamps asked for.
    pub count: u32,
}

/// One client's TSO requests; `W` says what each timestamp is for.
#[derive(Clone, Debug)]
pub struct TsoClient<W> {
    queued: Vec<W>,
    in_flight: Option<(u64, Vec<W>)>,
    next_batch: u64,
    /// Batches sent.
    pub batches_sent: u64,
    /// Requests that failed (their batch timed out).
    pub requests_failed: u64,
}

impl<W> Default for TsoClient<W> {
    fn default() -> Self {
        TsoClient {
            queued: Vec::new(),
            in_flight: None,
            next_batch: 0,
            batches_sent: 0,
            requests_failed: 0,
        }
    }
}

impl<W> TsoClient<W> {
    /// Queues `want`; returns the batch to send now when none is in flight.
    pub fn want(&mut self, want: W) -> Option<TsoBatch> {
        self.queued.push(want);
        self.dispatch()
    }

    /// True when something waits for a batch to be sent.
    pub fn has_queued(&self) -> bool {
        !self.queued.is_empty()
    }

    /// True when a batch is in flight.
    pub fn in_flight(&self) -> bool {
        self.in_flight.is_some()
    }

    fn dispatch(&mut self) -> Option<TsoBatch> {
        if self.in_flight.is_some() || self.queued.is_empty() {
            return None;
        }
        let n = self.queued.len().min(MAX_TSO_BATCH_SIZE);
        let wants: Vec<W> = self.queued.drain(..n).collect();
        self.next_batch += 1;
        self.batches_sent += 1;
        self.in_flight = Some((self.next_batch, wants));
        Some(TsoBatch {
            batch: self.next_batch,
            count: n as u32,
        })
    }

    /// PD answered `batch` with timestamps from `first`: each want with its timestamp, in
    /// the order they were queued, and the next batch to send (an answer to a batch that
    /// already timed out gives nothing).
    pub fn on_response(&mut self, batch: u64, first: Ts) -> (Vec<(W, Ts)>, Option<TsoBatch>) {
        if self.in_flight.as_ref().map(|(b, _)| *b) != Some(batch) {
            return (Vec::new(), None);
        }
        let (_, wants) = self.in_flight.take().expect("checked in flight");
        let got = wants
            .into_iter()
            .enumerate()
            .map(|(i, w)| (w, Ts(first.0 + i as u64)))
            .collect();
        (got, self.dispatch())
    }

    /// `batch` timed out: the wants that failed, and the next batch to send.
    pub fn on_timeout(&mut self, batch: u64) -> (Vec<W>, Option<TsoBatch>) {
        if self.in_flight.as_ref().map(|(b, _)| *b) != Some(batch) {
            return (Vec::new(), None);
        }
        let (_, wants) = self.in_flight.take().expect("checked in flight");
        self.requests_failed += wants.len() as u64;
        (wants, self.dispatch())
    }

    /// The process died: everything queued or in flight is gone.
    pub fn clear(&mut self) {
        self.queued.clear();
        self.in_flight = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_made_while_a_batch_is_in_flight_go_out_together_next() {
        let mut c: TsoClient<u32> = TsoClient::default();
        let first = c.want(1).expect("nothing in flight: sent at once");
        assert_eq!(first.count, 1);
        assert_eq!(c.want(2), None);
        assert_eq!(c.want(3), None);
        let (got, next) = c.on_response(first.batch, Ts(100));
        assert_eq!(got, vec![(1, Ts(100))]);
        let next = next.expect("the queued two form the next batch");
        assert_eq!(next.count, 2);
        let (got, none) = c.on_response(next.batch, Ts(200));
        assert_eq!(got, vec![(2, Ts(200)), (3, Ts(201))]);
        assert_eq!(none, None);
    }

    #[test]
    fn a_timed_out_batch_fails_whole_and_its_late_answer_is_ignored() {
        let mut c: TsoClient<u32> = TsoClient::default();
        let b = c.want(7).expect("sent");
        c.want(8);
        let (failed, next) = c.on_timeout(b.batch);
        assert_eq!(failed, vec![7]);
        assert_eq!(c.requests_failed, 1);
        let next = next.expect("the queued request goes out after the failure");
        let (late, _) = c.on_response(b.batch, Ts(5));
        assert!(late.is_empty(), "an answer to a reset stream is dropped");
        assert!(c.in_flight(), "the next batch still waits");
        let (got, _) = c.on_response(next.batch, Ts(9));
        assert_eq!(got, vec![(8, Ts(9))]);
    }
}

use super::CowVec;
use proptest::prelude::*;

/// Chunks of two elements, so small vectors cross many chunk boundaries.
type Small = CowVec<u32, 1>;

#[test]
fn a_clone_shares_every_chunk_and_a_write_unshares_only_its_own() {
    let mut live: Small = (0..10).collect();
    assert_eq!(live.chunk_count(), 5);
    let snapshot = live.clone();
    assert_eq!(live.shared_chunks(&snapshot), 5);
    live[3] = 99;
    assert_eq!(live.shared_chunks(&snapshot), 4);
    // A second write to the same chunk copies nothing more.
    live[2] = 98;
    assert_eq!(live.shared_chunks(&snapshot), 4);
    assert_eq!(snapshot[3], 3);
    assert_eq!(live[3], 99);
}

#[test]
fn the_last_chunk_may_be_short() {
    let v: Small = (0..5).collect();
    assert_eq!(v.len(), 5);
    assert_eq!(v.chunk_count(), 3);
    assert_eq!(v.get(4), Some(&4));
    assert_eq!(v.get(5), None);
    assert_eq!(v.iter().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
}

/// A push lands at the end, whether the last chunk is full or short, and leaves a clone taken
/// before it as it was; writes after it reach the pushed element in this vector only.
#[test]
fn a_push_appends_and_leaves_clones_alone() {
    let mut live: Small = (0..3).collect();
    let before = live.clone();
    live.push(3); // the short last chunk [2] grows to [2, 3]
    live.push(4); // a new chunk
    assert_eq!(live.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    assert_eq!((live.len(), live.chunk_count()), (5, 3));
    live[3] = 30;
    live[2] = 20;
    assert_eq!(before.iter().copied().collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(live[3], 30);
    let mut empty: Small = CowVec::default();
    empty.push(7);
    assert_eq!((empty.len(), empty[0]), (1, 7));
    let mut wide: CowVec<u8, 0> = CowVec::default();
    (0..130).for_each(|i| wide.push(i as u8));
    wide[129] = 1;
    assert_eq!((wide.len(), wide[129], wide[128]), (130, 1, 128));
}

#[test]
fn an_empty_vector_has_no_chunks() {
    let v: Small = Vec::new().into();
    assert!(v.is_empty());
    assert_eq!(v.chunk_count(), 0);
    assert_eq!(v.get(0), None);
}

#[test]
#[should_panic(expected = "index 5 out of range for a CowVec of length 5")]
fn indexing_past_the_end_names_the_index_and_length() {
    let mut v: Small = (0..5).collect();
    v[5] = 1;
}

/// One step of a random history: write a value, take a snapshot, or go back to one.
#[derive(Debug, Clone)]
enum Op {
    Write(usize, u32),
    Snapshot,
    Restore(usize),
}

fn op(len: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..len, any::<u32>()).prop_map(|(i, v)| Op::Write(i, v)),
        1 => Just(Op::Snapshot),
        1 => any::<usize>().prop_map(Op::Restore),
    ]
}

proptest! {
    /// Interleaved writes, snapshots and restores give the same contents as plain `Vec`s
    /// cloned the same way: a write never leaks into a snapshot, nor a snapshot's chunks into
    /// a restored live vector's later writes.
    #[test]
    fn behaves_like_cloned_vecs(len in 1usize..40, ops in proptest::collection::vec(op(40), 0..200)) {
        let mut plain: Vec<u32> = (0..len as u32).collect();
        let mut cow: Small = plain.clone().into();
        let mut plain_snaps: Vec<Vec<u32>> = Vec::new();
        let mut cow_snaps: Vec<Small> = Vec::new();
        for op in ops {
            match op {
                Op::Write(i, v) => {
                    let i = i % len;
                    plain[i] = v;
                    cow[i] = v;
                }
                Op::Snapshot => {
                    plain_snaps.push(plain.clone());
                    cow_snaps.push(cow.clone());
                }
                Op::Restore(k) if !plain_snaps.is_empty() => {
                    let k = k % plain_snaps.len();
                    plain = plain_snaps[k].clone();
                    cow = cow_snaps[k].clone();
                }
                Op::Restore(_) => {}
            }
            prop_assert_eq!(cow.iter().copied().collect::<Vec<_>>(), plain.clone());
        }
        for (p, c) in plain_snaps.iter().zip(&cow_snaps) {
            prop_assert_eq!(&c.iter().copied().collect::<Vec<_>>(), p);
        }
    }
}

/// A touch only reads: any index and length, in range or not, leaves the vector and its
/// sharing with a clone exactly as they were.
#[test]
fn touch_changes_nothing_at_any_index() {
    let v: CowVec<[u64; 40], 2> = (0..10u64).map(|i| [i; 40]).collect();
    let snapshot = v.clone();
    for i in [0, 3, 9, 10, usize::MAX] {
        for bytes in [0, 64, 320, usize::MAX] {
            v.touch(i, bytes);
        }
    }
    assert_eq!(v.shared_chunks(&snapshot), v.chunk_count());
    assert!(v.iter().zip(snapshot.iter()).all(|(a, b)| a == b));
}

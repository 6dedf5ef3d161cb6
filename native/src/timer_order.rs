//! The order in which Flink's event-time timer service fires its timers, reproduced outside it
//! (`accelerator/timers/` documents the model and its use). Two queues, one per kind of Flink
//! timer queue:
//!
//! - `HeapTimerQueue`: the heap backends' `HeapPriorityQueueSet` of `TimerHeapInternalTimer`s, one
//!   array heap over all the subtask's timers ordered by timestamp alone, so equal timestamps
//!   leave in the heap's order, which depends on every add, poll and removal before.
//! - `RocksDBTimerQueue`: RocksDB's `KeyGroupPartitionedPriorityQueue`, one set per key group
//!   ordered by the timer's serialized bytes, under a heap of the key groups ordered by the
//!   timestamp of their first timer.
//!
//! Both heaps are `ArrayHeap`, Flink's `HeapPriorityQueue` step for step: a 1-based array, strict
//! less-than comparisons, removal by moving the last element into the hole while the array still
//! holds it, then down and up.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::columns::native_buffer;
use crate::py_buffers::read;

/// Flink's `HeapPriorityQueue` over element numbers; `less` orders two elements by priority.
struct ArrayHeap {
    /// `queue[0]` is unused, as Flink's head index is 1.
    queue: Vec<u32>,
    /// The heap position of each element number (Flink's `HeapPriorityQueueElement` index).
    position: Vec<u32>,
}

impl ArrayHeap {
    fn new() -> ArrayHeap {
        ArrayHeap {
            queue: vec![u32::MAX],
            position: Vec::new(),
        }
    }

    fn size(&self) -> usize {
        self.queue.len() - 1
    }

    fn peek(&self) -> Option<u32> {
        self.queue.get(1).copied()
    }

    fn move_to(&mut self, element: u32, index: usize) {
        self.queue[index] = element;
        self.position[element as usize] = index as u32;
    }

    /// `addInternal`; true when the element became the head.
    fn add(&mut self, element: u32, less: &impl Fn(u32, u32) -> bool) -> bool {
        if self.position.len() <= element as usize {
            self.position.resize(element as usize + 1, 0);
        }
        self.queue.push(element);
        let index = self.size();
        self.move_to(element, index);
        self.sift_up(index, less);
        self.position[element as usize] == 1
    }

    /// `removeInternal` at `index`: the last element moves into the hole and is adjusted while
    /// the array still holds it at its old place, as Flink's does.
    fn remove_at(&mut self, index: usize, less: &impl Fn(u32, u32) -> bool) -> u32 {
        let removed = self.queue[index];
        let last = self.size();
        if index != last {
            let element = self.queue[last];
            self.move_to(element, index);
            self.adjust_at(element, index, less);
        }
        self.queue.pop();
        removed
    }

    fn remove(&mut self, element: u32, less: &impl Fn(u32, u32) -> bool) -> bool {
        let index = self.position[element as usize] as usize;
        self.remove_at(index, less);
        index == 1
    }

    fn poll(&mut self, less: &impl Fn(u32, u32) -> bool) -> Option<u32> {
        if self.size() == 0 {
            None
        } else {
            Some(self.remove_at(1, less))
        }
    }

    /// `adjustModifiedElement`: after an element's priority changed.
    fn adjust_modified(&mut self, element: u32, less: &impl Fn(u32, u32) -> bool) {
        let index = self.position[element as usize] as usize;
        if self.queue[index] == element {
            self.adjust_at(element, index, less);
        }
    }

    fn adjust_at(&mut self, element: u32, index: usize, less: &impl Fn(u32, u32) -> bool) {
        self.sift_down(index, less);
        if self.queue[index] == element {
            self.sift_up(index, less);
        }
    }

    fn sift_up(&mut self, mut index: usize, less: &impl Fn(u32, u32) -> bool) {
        let current = self.queue[index];
        let mut parent = index >> 1;
        while parent > 0 && less(current, self.queue[parent]) {
            self.move_to(self.queue[parent], index);
            index = parent;
            parent >>= 1;
        }
        self.move_to(current, index);
    }

    fn sift_down(&mut self, mut index: usize, less: &impl Fn(u32, u32) -> bool) {
        let size = self.size();
        let current = self.queue[index];
        let mut first = index << 1;
        let mut second = first + 1;
        if second <= size && less(self.queue[second], self.queue[first]) {
            first = second;
        }
        while first <= size && less(self.queue[first], current) {
            self.move_to(self.queue[first], index);
            index = first;
            first = index << 1;
            second = first + 1;
            if second <= size && less(self.queue[second], self.queue[first]) {
                first = second;
            }
        }
        self.move_to(current, index);
    }
}

/// The values of an Arrow binary array (its int32 offsets and data buffers) of `len` values.
struct Binary<'a> {
    offsets: &'a [i32],
    data: &'a [u8],
}

impl<'a> Binary<'a> {
    fn of(
        offsets: &'a PyBuffer<i32>,
        data: &'a PyBuffer<u8>,
        what: &str,
        len: usize,
    ) -> PyResult<Binary<'a>> {
        let offsets = read(offsets, what, len + 1)?;
        let data = read(data, what, data.item_count())?;
        let valid = offsets.windows(2).all(|w| 0 <= w[0] && w[0] <= w[1])
            && offsets
                .last()
                .is_some_and(|&end| end as usize <= data.len());
        if !valid {
            return Err(PyValueError::new_err(format!(
                "{what}: offsets must rise from 0 to at most the data's {} bytes",
                data.len()
            )));
        }
        Ok(Binary { offsets, data })
    }

    fn value(&self, i: usize) -> &'a [u8] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// Arrow binary buffers (int32 offsets, data) being written.
#[derive(Default)]
struct BinaryBuilder {
    offsets: Vec<u8>,
    data: Vec<u8>,
}

impl BinaryBuilder {
    fn push(&mut self, value: &[u8]) {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
        self.data.extend_from_slice(value);
        self.offsets
            .extend_from_slice(&(self.data.len() as i32).to_le_bytes());
    }

    fn into_buffers<'py>(mut self, py: Python<'py>) -> PyResult<[Bound<'py, PyAny>; 2]> {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
        Ok([
            native_buffer(py, self.offsets)?,
            native_buffer(py, self.data)?,
        ])
    }
}

fn int64_bytes(values: &[i64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The timers of a batch: key, key group, namespace and timestamp arrays of one length.
struct Batch<'a> {
    keys: &'a [i64],
    key_groups: &'a [i64],
    namespaces: &'a [i64],
    timestamps: &'a [i64],
}

/// The deduplication map's hash of a timer's three int64s: a multiply-rotate (rustc's FxHash)
/// instead of SipHash, which took most of a registration's time. Keys are the caller's numbers, not
/// input an adversary picks.
#[derive(Default)]
struct TimerHasher(u64);

impl TimerHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for TimerHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
    }

    fn write_i64(&mut self, value: i64) {
        self.mix(value as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type TimerMap = HashMap<(i64, i64, i64), u32, BuildHasherDefault<TimerHasher>>;

/// The (key, namespace) pairs whose firing registers the timer `step` later (`fire_batch`).
type FollowSet = HashSet<(i64, i64), BuildHasherDefault<TimerHasher>>;

/// One timer of the heap model: what `TimerHeapInternalTimer` holds.
#[derive(Clone, Copy)]
struct HeapTimer {
    key: i64,
    key_group: i64,
    namespace: i64,
    timestamp: i64,
}

/// The heap backends' timer queue (`HeapPriorityQueueSetFactory` makes one `HeapPriorityQueueSet`
/// per timer service). A timer is (key, namespace, timestamp) as `TimerHeapInternalTimer.equals`;
/// keys and namespaces are the caller's numbers for them (a key's slot, a window's end); the key
/// group is the key's (`KeyGroupRangeAssignment`), used only by `snapshot`.
#[pyclass(module = "accelerator._native")]
pub struct HeapTimerQueue {
    heap: ArrayHeap,
    timers: Vec<HeapTimer>,
    /// Element numbers of removed timers, for reuse.
    free: Vec<u32>,
    /// `HeapPriorityQueueSet`'s deduplication map.
    present: TimerMap,
}

impl HeapTimerQueue {
    fn add_one(&mut self, timer: HeapTimer) -> bool {
        let identity = (timer.key, timer.namespace, timer.timestamp);
        if self.present.contains_key(&identity) {
            return false;
        }
        let element = match self.free.pop() {
            Some(element) => {
                self.timers[element as usize] = timer;
                element
            }
            None => {
                self.timers.push(timer);
                (self.timers.len() - 1) as u32
            }
        };
        self.present.insert(identity, element);
        let timers = &self.timers;
        let less = |a: u32, b: u32| timers[a as usize].timestamp < timers[b as usize].timestamp;
        self.heap.add(element, &less);
        true
    }

    fn remove_one(&mut self, key: i64, namespace: i64, timestamp: i64) -> bool {
        let Some(element) = self.present.remove(&(key, namespace, timestamp)) else {
            return false;
        };
        let timers = &self.timers;
        let less = |a: u32, b: u32| timers[a as usize].timestamp < timers[b as usize].timestamp;
        self.heap.remove(element, &less);
        self.free.push(element);
        true
    }

    fn poll_one(&mut self) -> Option<HeapTimer> {
        let timers = &self.timers;
        let less = |a: u32, b: u32| timers[a as usize].timestamp < timers[b as usize].timestamp;
        let element = self.heap.poll(&less)?;
        let timer = self.timers[element as usize];
        self.present
            .remove(&(timer.key, timer.namespace, timer.timestamp));
        self.free.push(element);
        Some(timer)
    }

    fn batch<'a>(
        keys: &'a PyBuffer<i64>,
        key_groups: &'a PyBuffer<i64>,
        namespaces: &'a PyBuffer<i64>,
        timestamps: &'a PyBuffer<i64>,
    ) -> PyResult<Batch<'a>> {
        let n = keys.item_count();
        Ok(Batch {
            keys: read(keys, "keys", n)?,
            key_groups: read(key_groups, "key_groups", n)?,
            namespaces: read(namespaces, "namespaces", n)?,
            timestamps: read(timestamps, "timestamps", n)?,
        })
    }
}

fn heap_timer_tuple(py: Python<'_>, timer: HeapTimer) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(
        py,
        [timer.key, timer.key_group, timer.namespace, timer.timestamp],
    )
}

fn heap_timers_arrays<'py>(py: Python<'py>, timers: &[HeapTimer]) -> PyResult<Bound<'py, PyTuple>> {
    let column = |f: fn(&HeapTimer) -> i64| int64_bytes(&timers.iter().map(f).collect::<Vec<_>>());
    PyTuple::new(
        py,
        [
            native_buffer(py, column(|t| t.key))?,
            native_buffer(py, column(|t| t.key_group))?,
            native_buffer(py, column(|t| t.namespace))?,
            native_buffer(py, column(|t| t.timestamp))?,
        ],
    )
}

#[pymethods]
impl HeapTimerQueue {
    #[new]
    fn new() -> HeapTimerQueue {
        HeapTimerQueue {
            heap: ArrayHeap::new(),
            timers: Vec::new(),
            free: Vec::new(),
            present: TimerMap::default(),
        }
    }

    fn __len__(&self) -> usize {
        self.heap.size()
    }

    /// Registers a timer; true if it was not registered yet (Flink keeps one of equal timers).
    fn add(&mut self, key: i64, key_group: i64, namespace: i64, timestamp: i64) -> bool {
        self.add_one(HeapTimer {
            key,
            key_group,
            namespace,
            timestamp,
        })
    }

    /// Deletes a timer; true if it was registered.
    fn remove(&mut self, key: i64, namespace: i64, timestamp: i64) -> bool {
        self.remove_one(key, namespace, timestamp)
    }

    /// The timer Flink fires next as (key, key group, namespace, timestamp), or None.
    fn peek<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.heap
            .peek()
            .map(|element| heap_timer_tuple(py, self.timers[element as usize]))
            .transpose()
    }

    /// Takes the timer Flink fires next, as `peek`.
    fn poll<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.poll_one()
            .map(|timer| heap_timer_tuple(py, timer))
            .transpose()
    }

    /// Registers a batch of timers in order; a buffer of one byte per timer, 1 where it was new.
    fn add_batch<'py>(
        &mut self,
        py: Python<'py>,
        keys: PyBuffer<i64>,
        key_groups: PyBuffer<i64>,
        namespaces: PyBuffer<i64>,
        timestamps: PyBuffer<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let batch = Self::batch(&keys, &key_groups, &namespaces, &timestamps)?;
        let mut added = Vec::with_capacity(batch.keys.len());
        for i in 0..batch.keys.len() {
            added.push(u8::from(self.add_one(HeapTimer {
                key: batch.keys[i],
                key_group: batch.key_groups[i],
                namespace: batch.namespaces[i],
                timestamp: batch.timestamps[i],
            })));
        }
        native_buffer(py, added)
    }

    /// Deletes a batch of timers in order; one byte per timer, 1 where it was registered.
    fn remove_batch<'py>(
        &mut self,
        py: Python<'py>,
        keys: PyBuffer<i64>,
        namespaces: PyBuffer<i64>,
        timestamps: PyBuffer<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = keys.item_count();
        let keys = read(&keys, "keys", n)?;
        let namespaces = read(&namespaces, "namespaces", n)?;
        let timestamps = read(&timestamps, "timestamps", n)?;
        let removed: Vec<u8> = (0..n)
            .map(|i| u8::from(self.remove_one(keys[i], namespaces[i], timestamps[i])))
            .collect();
        native_buffer(py, removed)
    }

    /// Polls every timer at or before `watermark`, as `advanceWatermark` does when a fired timer's
    /// callback deletes nothing and registers at most the same key's timer `step` later in namespace
    /// and timestamp: it does for the (key, namespace) pairs of `follow_keys` and
    /// `follow_namespaces` (a HOP or CUMULATE window's next window), at once after the poll, so the
    /// new timer fires in the same pass when the watermark reaches it. (keys, key groups,
    /// namespaces, timestamps) int64 buffers in firing order.
    #[pyo3(signature = (watermark, step=0, follow_keys=None, follow_namespaces=None))]
    fn fire_batch<'py>(
        &mut self,
        py: Python<'py>,
        watermark: i64,
        step: i64,
        follow_keys: Option<PyBuffer<i64>>,
        follow_namespaces: Option<PyBuffer<i64>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut follow = FollowSet::default();
        if let (Some(keys), Some(namespaces)) = (&follow_keys, &follow_namespaces) {
            let n = keys.item_count();
            let keys = read(keys, "follow_keys", n)?;
            let namespaces = read(namespaces, "follow_namespaces", n)?;
            follow.extend(keys.iter().copied().zip(namespaces.iter().copied()));
        } else if follow_keys.is_some() || follow_namespaces.is_some() {
            return Err(PyValueError::new_err(
                "fire_batch: follow_keys and follow_namespaces come together",
            ));
        }
        let mut fired = Vec::new();
        while let Some(element) = self.heap.peek() {
            if self.timers[element as usize].timestamp > watermark {
                break;
            }
            let timer = self.poll_one().expect("a head was peeked");
            fired.push(timer);
            if follow.contains(&(timer.key, timer.namespace)) {
                self.add_one(HeapTimer {
                    key: timer.key,
                    key_group: timer.key_group,
                    namespace: timer.namespace.wrapping_add(step),
                    timestamp: timer.timestamp.wrapping_add(step),
                });
            }
        }
        heap_timers_arrays(py, &fired)
    }

    /// The timers in the order a heap backend's checkpoint writes them: by key group, within one
    /// the heap array's order (`HeapPriorityQueueStateSnapshot`'s stable partition), as
    /// (keys, key groups, namespaces, timestamps) buffers. A restore adds them in this order.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut timers: Vec<HeapTimer> = self.heap.queue[1..]
            .iter()
            .map(|&element| self.timers[element as usize])
            .collect();
        timers.sort_by_key(|t| t.key_group); // stable
        heap_timers_arrays(py, &timers)
    }
}

/// The bytes RocksDB orders a timer of a key group by, past the key-group prefix they share:
/// `TimerSerializer`'s timestamp with its sign bit flipped (big-endian), the key's and the
/// namespace's serialized bytes.
fn rocksdb_sort_bytes(key: &[u8], namespace: &[u8], timestamp: i64) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 + key.len() + namespace.len());
    bytes.extend_from_slice(&((timestamp as u64) ^ (1u64 << 63)).to_be_bytes());
    bytes.extend_from_slice(key);
    bytes.extend_from_slice(namespace);
    bytes
}

fn sort_bytes_timestamp(bytes: &[u8]) -> i64 {
    (u64::from_be_bytes(bytes[..8].try_into().expect("8 timestamp bytes")) ^ (1u64 << 63)) as i64
}

/// One key group's `RocksDBCachingPriorityQueueSet`: its timers in byte order, each with the
/// length of its key's bytes.
type KeyGroupSet = BTreeMap<Vec<u8>, usize>;

/// The head timestamps' order of two key groups (`InternalPriorityQueueComparator`: an empty
/// key group after any other).
fn key_group_less(sets: &[KeyGroupSet], a: u32, b: u32) -> bool {
    match (
        sets[a as usize].first_key_value(),
        sets[b as usize].first_key_value(),
    ) {
        (Some(_), None) => true,
        (Some((x, _)), Some((y, _))) => sort_bytes_timestamp(x) < sort_bytes_timestamp(y),
        _ => false,
    }
}

/// RocksDB's timer queue (`RocksDBPriorityQueueSetFactory`): keys and namespaces are their
/// serializers' bytes (the key serializer's, `TimerSerializer` writes them so), as a timer's
/// identity and order within its key group.
#[pyclass(module = "accelerator._native")]
pub struct RocksDBTimerQueue {
    first_key_group: i64,
    sets: Vec<KeyGroupSet>,
    /// `heapOfkeyGroupedHeaps` over the key groups' local numbers.
    heap: ArrayHeap,
}

impl RocksDBTimerQueue {
    fn local(&self, key_group: i64) -> PyResult<usize> {
        let local = key_group - self.first_key_group;
        if local < 0 || local as usize >= self.sets.len() {
            return Err(PyValueError::new_err(format!(
                "key group {key_group} is outside this queue's key groups {}..{}",
                self.first_key_group,
                self.first_key_group + self.sets.len() as i64
            )));
        }
        Ok(local as usize)
    }

    fn add_one(
        &mut self,
        key: &[u8],
        key_group: i64,
        namespace: &[u8],
        timestamp: i64,
    ) -> PyResult<bool> {
        let local = self.local(key_group)?;
        let bytes = rocksdb_sort_bytes(key, namespace, timestamp);
        if self.sets[local].contains_key(&bytes) {
            return Ok(false);
        }
        let head = self.sets[local]
            .first_key_value()
            .is_none_or(|(first, _)| bytes < *first);
        self.sets[local].insert(bytes, key.len());
        // The set answers whether its head changed; only then is the key group moved.
        if head {
            self.adjust(local);
        }
        Ok(true)
    }

    fn remove_one(
        &mut self,
        key: &[u8],
        key_group: i64,
        namespace: &[u8],
        timestamp: i64,
    ) -> PyResult<bool> {
        let local = self.local(key_group)?;
        let bytes = rocksdb_sort_bytes(key, namespace, timestamp);
        let head = self.sets[local]
            .first_key_value()
            .is_some_and(|(first, _)| *first == bytes);
        let present = self.sets[local].remove(&bytes).is_some();
        if head {
            self.adjust(local);
        }
        Ok(present)
    }

    fn adjust(&mut self, local: usize) {
        let sets = &self.sets;
        self.heap
            .adjust_modified(local as u32, &|a, b| key_group_less(sets, a, b));
    }

    fn poll_one(&mut self) -> Option<(Vec<u8>, usize, i64)> {
        let local = self.heap.peek()? as usize;
        let polled = self.sets[local].pop_first();
        self.adjust(local);
        polled.map(|(bytes, key_len)| (bytes, key_len, local as i64 + self.first_key_group))
    }
}

fn rocksdb_timer_tuple<'py>(
    py: Python<'py>,
    bytes: &[u8],
    key_len: usize,
    key_group: i64,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            PyBytes::new(py, &bytes[8..8 + key_len]).into_any(),
            key_group.into_pyobject(py)?.into_any(),
            PyBytes::new(py, &bytes[8 + key_len..]).into_any(),
            sort_bytes_timestamp(bytes).into_pyobject(py)?.into_any(),
        ],
    )
}

/// One timer operation of the RocksDB queue: (key, key group, namespace, timestamp) -> its answer.
type TimerOp = fn(&mut RocksDBTimerQueue, &[u8], i64, &[u8], i64) -> PyResult<bool>;

impl RocksDBTimerQueue {
    /// `op` on each timer of a batch (as `add_batch` takes it) in order; one byte per timer, 1
    /// where `op` answered true.
    #[allow(clippy::too_many_arguments)]
    fn each_of<'py>(
        &mut self,
        py: Python<'py>,
        key_offsets: PyBuffer<i32>,
        key_data: PyBuffer<u8>,
        key_groups: PyBuffer<i64>,
        namespace_offsets: PyBuffer<i32>,
        namespace_data: PyBuffer<u8>,
        timestamps: PyBuffer<i64>,
        op: TimerOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = key_groups.item_count();
        let keys = Binary::of(&key_offsets, &key_data, "keys", n)?;
        let namespaces = Binary::of(&namespace_offsets, &namespace_data, "namespaces", n)?;
        let key_groups = read(&key_groups, "key_groups", n)?;
        let timestamps = read(&timestamps, "timestamps", n)?;
        let answers = (0..n)
            .map(|i| {
                op(
                    self,
                    keys.value(i),
                    key_groups[i],
                    namespaces.value(i),
                    timestamps[i],
                )
                .map(u8::from)
            })
            .collect::<PyResult<Vec<u8>>>()?;
        native_buffer(py, answers)
    }
}

#[pymethods]
impl RocksDBTimerQueue {
    /// The queue of a subtask holding `key_groups` key groups from `first_key_group` on.
    #[new]
    fn new(first_key_group: i64, key_groups: usize) -> RocksDBTimerQueue {
        let mut queue = RocksDBTimerQueue {
            first_key_group,
            sets: vec![KeyGroupSet::new(); key_groups],
            heap: ArrayHeap::new(),
        };
        queue.build_heap();
        queue
    }

    fn __len__(&self) -> usize {
        self.sets.iter().map(BTreeMap::len).sum()
    }

    /// Registers a timer; true if it was not registered yet.
    fn add(
        &mut self,
        key: &[u8],
        key_group: i64,
        namespace: &[u8],
        timestamp: i64,
    ) -> PyResult<bool> {
        self.add_one(key, key_group, namespace, timestamp)
    }

    /// Deletes a timer; true if it was registered.
    fn remove(
        &mut self,
        key: &[u8],
        key_group: i64,
        namespace: &[u8],
        timestamp: i64,
    ) -> PyResult<bool> {
        self.remove_one(key, key_group, namespace, timestamp)
    }

    /// Registers a batch of timers in order, keys and namespaces as Arrow binary arrays' int32
    /// offsets and data; a buffer of one byte per timer, 1 where it was new.
    #[allow(clippy::too_many_arguments)]
    fn add_batch<'py>(
        &mut self,
        py: Python<'py>,
        key_offsets: PyBuffer<i32>,
        key_data: PyBuffer<u8>,
        key_groups: PyBuffer<i64>,
        namespace_offsets: PyBuffer<i32>,
        namespace_data: PyBuffer<u8>,
        timestamps: PyBuffer<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.each_of(
            py,
            key_offsets,
            key_data,
            key_groups,
            namespace_offsets,
            namespace_data,
            timestamps,
            Self::add_one,
        )
    }

    /// Deletes a batch of timers in order, as `add_batch`; one byte per timer, 1 where it was
    /// registered.
    #[allow(clippy::too_many_arguments)]
    fn remove_batch<'py>(
        &mut self,
        py: Python<'py>,
        key_offsets: PyBuffer<i32>,
        key_data: PyBuffer<u8>,
        key_groups: PyBuffer<i64>,
        namespace_offsets: PyBuffer<i32>,
        namespace_data: PyBuffer<u8>,
        timestamps: PyBuffer<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.each_of(
            py,
            key_offsets,
            key_data,
            key_groups,
            namespace_offsets,
            namespace_data,
            timestamps,
            Self::remove_one,
        )
    }

    /// The timer Flink fires next as (key bytes, key group, namespace bytes, timestamp), or None.
    fn peek<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(local) = self.heap.peek() else {
            return Ok(None);
        };
        self.sets[local as usize]
            .first_key_value()
            .map(|(bytes, &key_len)| {
                rocksdb_timer_tuple(py, bytes, key_len, local as i64 + self.first_key_group)
            })
            .transpose()
    }

    /// Takes the timer Flink fires next, as `peek`.
    fn poll<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.poll_one()
            .map(|(bytes, key_len, key_group)| rocksdb_timer_tuple(py, &bytes, key_len, key_group))
            .transpose()
    }

    /// Polls every timer at or before `watermark`, as the heap queue's `fire_batch`: a fired timer
    /// whose (key, namespace) bytes are among the follow pairs registers its key's timer `step`
    /// later, in timestamp and in namespace (namespaces of those pairs are `LongSerializer`'s 8
    /// big-endian bytes). (key offsets, key data, key groups, namespace offsets, namespace data,
    /// timestamps) buffers in firing order, keys and namespaces as Arrow binary arrays' int32
    /// offsets and data.
    #[pyo3(signature = (watermark, step=0, follow_key_offsets=None, follow_key_data=None,
                        follow_namespace_offsets=None, follow_namespace_data=None))]
    #[allow(clippy::too_many_arguments)]
    fn fire_batch<'py>(
        &mut self,
        py: Python<'py>,
        watermark: i64,
        step: i64,
        follow_key_offsets: Option<PyBuffer<i32>>,
        follow_key_data: Option<PyBuffer<u8>>,
        follow_namespace_offsets: Option<PyBuffer<i32>>,
        follow_namespace_data: Option<PyBuffer<u8>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut follow: HashSet<(Vec<u8>, Vec<u8>)> = HashSet::new();
        match (
            &follow_key_offsets,
            &follow_key_data,
            &follow_namespace_offsets,
            &follow_namespace_data,
        ) {
            (Some(key_offsets), Some(key_data), Some(namespace_offsets), Some(namespace_data)) => {
                let n = key_offsets.item_count().saturating_sub(1);
                let keys = Binary::of(key_offsets, key_data, "follow keys", n)?;
                let namespaces =
                    Binary::of(namespace_offsets, namespace_data, "follow namespaces", n)?;
                for i in 0..n {
                    let namespace = namespaces.value(i);
                    if namespace.len() != 8 {
                        return Err(PyValueError::new_err(format!(
                            "fire_batch: a follow namespace is {} bytes, not a long's 8",
                            namespace.len()
                        )));
                    }
                    follow.insert((keys.value(i).to_vec(), namespace.to_vec()));
                }
            }
            (None, None, None, None) => {}
            _ => {
                return Err(PyValueError::new_err(
                    "fire_batch: the follow keys' and namespaces' offsets and data come together",
                ))
            }
        }
        let (mut keys, mut namespaces) = (BinaryBuilder::default(), BinaryBuilder::default());
        let (mut key_groups, mut timestamps) = (Vec::new(), Vec::new());
        while let Some(local) = self.heap.peek() {
            match self.sets[local as usize].first_key_value() {
                Some((bytes, _)) if sort_bytes_timestamp(bytes) <= watermark => {}
                _ => break,
            }
            let (bytes, key_len, key_group) = self.poll_one().expect("a head was peeked");
            let (key, namespace) = (&bytes[8..8 + key_len], &bytes[8 + key_len..]);
            let timestamp = sort_bytes_timestamp(&bytes);
            keys.push(key);
            namespaces.push(namespace);
            key_groups.push(key_group);
            timestamps.push(timestamp);
            if !follow.is_empty() && follow.contains(&(key.to_vec(), namespace.to_vec())) {
                let end = i64::from_be_bytes(namespace.try_into().expect("8 bytes, checked above"));
                let next = end.wrapping_add(step).to_be_bytes();
                self.add_one(key, key_group, &next, timestamp.wrapping_add(step))?;
            }
        }
        let [key_offsets, key_data] = keys.into_buffers(py)?;
        let [namespace_offsets, namespace_data] = namespaces.into_buffers(py)?;
        PyTuple::new(
            py,
            [
                key_offsets,
                key_data,
                native_buffer(py, int64_bytes(&key_groups))?,
                namespace_offsets,
                namespace_data,
                native_buffer(py, int64_bytes(&timestamps))?,
            ],
        )
    }

    /// The timers as a checkpoint holds them: by key group, within one in byte order; a list of
    /// `peek`'s tuples.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let all = PyList::empty(py);
        for (local, set) in self.sets.iter().enumerate() {
            for (bytes, &key_len) in set {
                all.append(rocksdb_timer_tuple(
                    py,
                    bytes,
                    key_len,
                    local as i64 + self.first_key_group,
                )?)?;
            }
        }
        Ok(all)
    }

    /// Puts restored timers into their key groups' sets and builds the key groups' heap anew, as
    /// the queue Flink creates over a restored RocksDB does: every key group added in order, by
    /// the head it holds then. Only on an empty queue.
    fn restore(&mut self, timers: Vec<(Vec<u8>, i64, Vec<u8>, i64)>) -> PyResult<()> {
        if self.__len__() != 0 {
            return Err(PyValueError::new_err(
                "restore: the queue already holds timers; restore into a new queue",
            ));
        }
        for (key, key_group, namespace, timestamp) in timers {
            let local = self.local(key_group)?;
            self.sets[local].insert(rocksdb_sort_bytes(&key, &namespace, timestamp), key.len());
        }
        self.build_heap();
        Ok(())
    }
}

impl RocksDBTimerQueue {
    fn build_heap(&mut self) {
        self.heap = ArrayHeap::new();
        let sets = &self.sets;
        for local in 0..sets.len() {
            self.heap
                .add(local as u32, &|a, b| key_group_less(sets, a, b));
        }
    }
}

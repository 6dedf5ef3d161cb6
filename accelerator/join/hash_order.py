"""The iteration order of one join key's rows on the hashmap state backend: a model of the
`java.util.HashMap<BinaryRowData, Integer>` (JDK 17) that stock's `InputSideHasNoUniqueKey` keeps
per key and side on `HeapMapState` (docs/design/stateful-joins.md).

Stock emits the other side's rows in that map's iteration order: bucket by bucket
(`(h ^ h >>> 16) & (capacity - 1)`, `h` being `BinaryRowData.hashCode`), and within a bucket along
its `next` links. A bucket is a list in insertion order until it holds 9 entries at a capacity of
64 or more; then it is a red-black tree of `TreeNode`s whose `next` order follows the tree's
shape: a new node is linked right after its tree parent and the root is moved to the front. This
module replays exactly what shapes that order: growth (resize at size > 0.75 x capacity, and
`treeifyBin` resizing instead of treeifying below capacity 64), list splits on resize, treeify,
red-black insertion with its rotations and colours, tree splits (untreeify at 6 or fewer,
re-treeify when both halves stay trees) and the restored map of
`CollectionUtil.newHashMapWithExpectedSize(n)`.

Only inserts are modelled: a repeated row only counts up in stock (no change to the map), and the
accelerated join takes insert-only inputs, so no entry is ever removed.

Rows of one tree with the same full hash are ordered in Java by `System.identityHashCode`
(`tieBreakOrder`), which no run can predict: the model then places the newer row after the older
one (as if its identity hash were the larger), one of the two orders stock gives.
"""

from __future__ import annotations

import numpy as np

_TREEIFY_THRESHOLD = 8
_UNTREEIFY_THRESHOLD = 6
_MIN_TREEIFY_CAPACITY = 64
_DEFAULT_CAPACITY = 16


def spread(hash_code: int) -> int:
    """HashMap.hash: the key's hashCode with its high half folded into the low, a signed int."""
    h = hash_code & 0xFFFFFFFF
    h ^= h >> 16
    return h - (1 << 32) if h & 0x80000000 else h


def expected_size_capacity(n: int) -> int:
    """The table a `CollectionUtil.newHashMapWithExpectedSize(n)` allocates at its first put."""
    return int(expected_size_capacities(np.array([n]))[0])


def expected_size_capacities(n: np.ndarray) -> np.ndarray:
    """`expected_size_capacity` of each size: HashMap.tableSizeFor of `n + 1` for n <= 2, else of
    ceil(n / 0.75)."""
    n = np.asarray(n, dtype=np.int64)
    requested = np.where(n <= 2, n + 1, -(-4 * n // 3))
    capacity = np.ones(len(n), dtype=np.int64)
    while (small := capacity < requested).any():
        capacity[small] <<= 1
    return capacity


class _Node:
    """One entry: its spread hash, what it stands for (`item`) and, in a tree bin, its links."""

    __slots__ = ("hash", "item", "parent", "left", "right", "red")

    def __init__(self, hash_: int, item: int):
        self.hash, self.item = hash_, item
        self.parent = self.left = self.right = None
        self.red = False


class HashMapOrder:
    """One HashMap's bins: per bucket index, its nodes in `next` order, and the root of each bucket
    that is a tree. Entries are `item`s (ints) the caller maps to rows."""

    __slots__ = ("capacity", "threshold", "size", "bins", "roots", "_order")

    def __init__(self, initial_capacity: int | None = None):
        """`new HashMap<>()` (None: 16 buckets at the first put), or `new HashMap<>(c)` with `c`
        already a power of two (its table is allocated at the first put, too)."""
        self.capacity = 0
        self.threshold = initial_capacity or 0
        self.size = 0
        self.bins: dict[int, list[_Node]] = {}
        self.roots: dict[int, _Node] = {}
        self._order: np.ndarray | None = None

    @classmethod
    def restored(cls, n: int) -> HashMapOrder:
        """The map a heap restore (or MapSerializer.copy) fills with `n` entries."""
        return cls(expected_size_capacity(n))

    def put(self, hash_code: int, item: int) -> None:
        """Puts a key not in the map yet, with BinaryRowData.hashCode `hash_code`."""
        self._order = None
        h = spread(hash_code)
        if self.capacity == 0:
            self._resize()
        index = h & (self.capacity - 1)
        chain = self.bins.get(index)
        node = _Node(h, item)
        if chain is None:
            self.bins[index] = [node]
        elif index in self.roots:
            self._tree_insert(index, chain, node)
        else:
            chain.append(node)
            if len(chain) > _TREEIFY_THRESHOLD:
                if self.capacity < _MIN_TREEIFY_CAPACITY:
                    self._resize()
                else:
                    self._treeify(index, chain)
        self.size += 1
        if self.size > self.threshold:
            self._resize()

    def order(self) -> np.ndarray:
        """The items in iteration order (cached until the next put)."""
        if self._order is None:
            self._order = np.fromiter((n.item for i in sorted(self.bins) for n in self.bins[i]), dtype=np.int64,
                                      count=self.size)
        return self._order

    def _resize(self) -> None:
        old = self.capacity
        if old > 0:
            self.capacity = old << 1
        elif self.threshold > 0:
            self.capacity = self.threshold
        else:
            self.capacity = _DEFAULT_CAPACITY
        self.threshold = self.capacity * 3 // 4
        if old == 0:
            return
        bins, roots = self.bins, self.roots
        self.bins, self.roots = {}, {}
        for index, chain in bins.items():
            lo = [n for n in chain if not n.hash & old]
            hi = [n for n in chain if n.hash & old]
            if index not in roots:
                if lo:
                    self.bins[index] = lo
                if hi:
                    self.bins[index + old] = hi
                continue
            for at, half, other in ((index, lo, hi), (index + old, hi, lo)):
                if not half:
                    continue
                self.bins[at] = half
                if len(half) <= _UNTREEIFY_THRESHOLD:
                    continue
                if other:
                    self._treeify(at, half)
                else:
                    self.roots[at] = roots[index]

    def _treeify(self, index: int, chain: list[_Node]) -> None:
        """TreeNode.treeify: each node in `next` order inserted by hash into a new red-black tree,
        then the root moved to the front."""
        root = None
        for x in chain:
            x.left = x.right = None
            if root is None:
                x.parent, x.red, root = None, False, x
                continue
            p = root
            while True:
                right = x.hash > p.hash or x.hash == p.hash  # equal hashes: see the module's docstring
                child = p.right if right else p.left
                if child is None:
                    x.parent = p
                    if right:
                        p.right = x
                    else:
                        p.left = x
                    root = _balance_insertion(root, x)
                    break
                p = child
        self.roots[index] = root
        _move_to_front(chain, root)

    def _tree_insert(self, index: int, chain: list[_Node], x: _Node) -> None:
        """TreeNode.putTreeVal for a new key: linked right after its tree parent in `next` order,
        then the tree rebalanced and its root moved to the front."""
        root = self.roots[index]
        p = root
        while True:
            right = x.hash >= p.hash
            child = p.right if right else p.left
            if child is None:
                break
            p = child
        if right:
            p.right = x
        else:
            p.left = x
        x.parent = p
        chain.insert(chain.index(p) + 1, x)
        root = _balance_insertion(root, x)
        self.roots[index] = root
        _move_to_front(chain, root)


def _move_to_front(chain: list[_Node], root: _Node) -> None:
    if chain[0] is not root:
        chain.remove(root)
        chain.insert(0, root)


def _rotate_left(root: _Node, p: _Node) -> _Node:
    r = p.right
    if r is None:
        return root
    p.right = r.left
    if r.left is not None:
        r.left.parent = p
    r.parent = pp = p.parent
    if pp is None:
        root = r
        r.red = False
    elif pp.left is p:
        pp.left = r
    else:
        pp.right = r
    r.left = p
    p.parent = r
    return root


def _rotate_right(root: _Node, p: _Node) -> _Node:
    lt = p.left
    if lt is None:
        return root
    p.left = lt.right
    if lt.right is not None:
        lt.right.parent = p
    lt.parent = pp = p.parent
    if pp is None:
        root = lt
        lt.red = False
    elif pp.right is p:
        pp.right = lt
    else:
        pp.left = lt
    lt.right = p
    p.parent = lt
    return root


def _balance_insertion(root: _Node, x: _Node) -> _Node:
    """TreeNode.balanceInsertion: red-black insertion fix-up, recolouring the root black only
    where Java does (a rotation that makes a new root, or `x` reaching the top)."""
    x.red = True
    while True:
        xp = x.parent
        if xp is None:
            x.red = False
            return x
        xpp = xp.parent
        if not xp.red or xpp is None:
            return root
        if xp is xpp.left:
            uncle = xpp.right
            if uncle is not None and uncle.red:
                uncle.red = xp.red = False
                xpp.red = True
                x = xpp
                continue
            if x is xp.right:
                x = xp
                root = _rotate_left(root, x)
                xp = x.parent
                xpp = None if xp is None else xp.parent
            if xp is not None:
                xp.red = False
                if xpp is not None:
                    xpp.red = True
                    root = _rotate_right(root, xpp)
        else:
            uncle = xpp.left
            if uncle is not None and uncle.red:
                uncle.red = xp.red = False
                xpp.red = True
                x = xpp
                continue
            if x is xp.left:
                x = xp
                root = _rotate_right(root, x)
                xp = x.parent
                xpp = None if xp is None else xp.parent
            if xp is not None:
                xp.red = False
                if xpp is not None:
                    xpp.red = True
                    root = _rotate_left(root, xpp)

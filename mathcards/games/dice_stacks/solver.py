"""The best stacks a Dice Stacks hand can make, and every stack it can make.

What a stack is (the rule) lives in ``dice_stacks.rule``; this module only
searches with it.

Everything here works on *rank counts*: ``counts[r - 1]`` is how many cards
of rank r (1 = Ace ... 12 = Queen, 13 = King) a hand holds. Suits never change
whether cards make a stack, so the solver and the enumerator of legal stacks
search over counts and pick concrete cards at the end.

The exact solver (:func:`best_stack_counts`) rests on three facts, each an
exchange argument written out where it is used:

1. every card of rank T is laid alone (forced);
2. the special pairs are all laid (forced);
3. only *minimal* stacks need to be considered: a stack that contains a smaller
   stack worth as many points can be replaced by it.

What is left is a packing problem over a small set of minimal stack shapes.
It is solved by a goal-directed search over the remaining counts ("can these
counts still make g stacks?", lowest rank first so each packing is reached in
one canonical way), starting from an upper bound and lowering the goal until
it succeeds. Two upper bounds prune it, the smaller wins: counting (a stack
scores 1 point per card only if it is a lone card with Kings, otherwise at
most 1 point per 2 cards) and prices per rank from the linear-programming
relaxation solved once per hand (weak duality). Memo: per state, the most
stacks proven reachable and the fewest proven impossible.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import product

from mathcards.games.dice_stacks.rule import counts_make, counts_points, king_bases

NUM_RANKS = 13  # index 0..11: Ace..Queen, index 12: Kings

__all__ = [
    "best_stack_counts",
    "minimal_shapes",
    "plain_memo_best",
    "stack_shapes",
]


# --- minimal shapes for the solver ----------------------------------------
def _sub_multisets(vec: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    return product(*(range(c + 1) for c in vec))


@cache
def minimal_shapes(target: int, kings: int, cap: int = 8) -> tuple[tuple[int, ...], ...]:
    """Every minimal 1-point stack shape for ``target`` with exactly ``kings`` Kings,
    at most ``cap`` cards of any rank, and no card of rank ``target`` (those are
    always laid alone).

    A shape is a 13-long count vector. Minimal: no smaller part of it (fewer
    cards or fewer Kings) is itself a stack, so it could not be swapped for one.
    """
    found: set[tuple[int, ...]] = set()
    values = [v for v in range(1, 13) if v != target]
    # most the values from index i on can add up to
    room = [cap * sum(values[i:]) for i in range(len(values) + 1)]
    bases = {b for b, k in king_bases(target, kings).items() if k == kings}
    # Sums a smaller part of an adding stack must avoid (a part reaching one
    # of them, with at most `kings` Kings, is a smaller stack).
    all_bases = king_bases(target, kings)
    # Subtracting from a largest card v makes a stack when the part taken
    # away adds to one of these (v - base for each base with <= kings Kings).
    sub_from = [0] * 13
    for v in range(1, 13):
        for b in all_bases:
            if v - b > 0:
                sub_from[v] |= 1 << (v - b)

    for base in bases:
        # Adding: non-decreasing values summing to `base`, pruning any partial
        # multiset with a part that already makes a stack (by adding or by
        # subtracting from its newest, largest card): no completion is minimal.
        avoid_here = 0
        for b in all_bases:
            if b != base:
                avoid_here |= 1 << b

        def grow(start: int, left: int, vec: list[int], sums: int, n: int, avoid: int) -> None:
            if left == 0:
                if n >= 2 or kings > 0:  # a lone card of rank target is excluded
                    found.add((*vec, kings))
                return
            if left > room[start]:
                return
            for idx in range(start, len(values)):
                v = values[idx]
                if v > left:
                    break
                if vec[v - 1] == cap or sums & sub_from[v] & ~1:
                    continue
                new_sums = sums | (sums << v)
                if (new_sums >> 1 << 1) & avoid:
                    continue
                vec[v - 1] += 1
                grow(idx, left - v, vec, new_sums, n + 1, avoid)
                vec[v - 1] -= 1

        grow(0, base, [0] * 12, 1, 0, avoid_here)
        # Subtracting: the largest `top` minus others adding to top - base.
        for top in range(base + 1, 13):
            if top == target:
                continue
            rest = top - base
            for others in _partitions(rest, min(top, 12)):
                if target in others:
                    continue
                vec = [0] * 12
                vec[top - 1] += 1
                for v in others:
                    vec[v - 1] += 1
                if max(vec) <= cap:
                    found.add((*vec, kings))
    minimal = [shape for shape in found if _is_minimal(shape, target)]
    # Fewer cards first: the search finds good packings early.
    minimal.sort(key=lambda s: (sum(s), s))
    return tuple(minimal)


@cache
def _partitions(total: int, largest: int) -> tuple[tuple[int, ...], ...]:
    """Ways to write ``total`` as a sum of parts 1..largest (non-increasing)."""
    if total == 0:
        return ((),)
    return tuple((first, *rest) for first in range(min(total, largest), 0, -1)
                 for rest in _partitions(total - first, first))


def _is_minimal(shape: tuple[int, ...], target: int) -> bool:
    for sub in _sub_multisets(shape):
        if sub == shape:
            continue
        if counts_make(sub, target):
            return False
    return True


# --- the exact solver -------------------------------------------------------
def best_stack_counts(counts: Sequence[int], dice: tuple[int, int]) -> list[tuple[int, ...]]:
    """The rank-count shapes of disjoint stacks with the most points (exact)."""
    counts = list(counts)
    d1, d2 = dice
    target = d1 + d2
    chosen: list[tuple[int, ...]] = []

    # 1. Forced: a card of rank T alone scores 1. In any best answer a T-card
    #    inside a bigger stack (never special: the dice are both below T) can
    #    replace that stack, and an unused T-card can be added as a stack.
    if target <= 12 and counts[target - 1]:
        single = tuple(1 if i == target - 1 else 0 for i in range(NUM_RANKS))
        chosen += [single] * counts[target - 1]
        counts[target - 1] = 0

    # 2. Forced: special pairs. If a best answer leaves a die-1 card x and a
    #    die-2 card y out of a special pair, swap: lay {x, y} as the special
    #    pair (2 points) and break up the stacks they were in (each at most
    #    1 point, or 1 point together if it was one stack): never worse.
    special = [0] * NUM_RANKS
    special[d1 - 1] += 1
    special[d2 - 1] += 1
    pairs = min(counts[d1 - 1], counts[d2 - 1]) if d1 != d2 else counts[d1 - 1] // 2
    if pairs:
        chosen += [tuple(special)] * pairs
        counts[d1 - 1] -= pairs
        counts[d2 - 1] -= pairs

    # 3. Pack minimal shapes.
    kings = counts[12]
    cap = max(8, max(counts[:12]))
    shapes = [
        s
        for k in range(kings + 1)
        for s in minimal_shapes(target, k, cap)
        if all(a <= b for a, b in zip(s, counts, strict=False))
    ]
    if shapes:
        chosen += _pack(counts, shapes, target, kings)
    return chosen


def _pack(
    counts: list[int], shapes: list[tuple[int, ...]], target: int, kings: int
) -> list[tuple[int, ...]]:
    """Most stacks packed from ``shapes`` (each 1 point) into ``counts``.

    Counts are packed into one integer, ``width`` bits per rank with a guard
    bit on top of each field, so "does this shape fit" and "take it away" are
    one subtraction each.
    """
    width = max(5, max(counts).bit_length() + 2)
    field = (1 << width) - 1
    guard = 0
    for i in range(NUM_RANKS):
        guard |= 1 << (i * width + width - 1)

    def pack(vec: Sequence[int]) -> int:
        return sum(c << (i * width) for i, c in enumerate(vec))

    # Shapes by their lowest rank: a packing is built lowest rank first.
    by_low: list[list[tuple[int, int]]] = [[] for _ in range(12)]
    for s in shapes:
        low = next(i for i in range(12) if s[i])
        by_low[low].append((pack(s), sum(s[:12])))

    # A price per rank from the linear-programming relaxation: every shape
    # costs at least 1 at these prices, so a hand's total price bounds the
    # stacks it can still make (the LP dual; weak duality).
    prices = _lp_prices(counts, shapes) if len(shapes) > 8 else None
    if prices is not None:
        scaled = [int(p * 1_000_000) + 1 for p in prices]  # rounded up: still a valid price

    # Lone cards that make the target with Kings (1 point per card).
    lone_ranks = [
        b - 1 for b, k in king_bases(target, kings).items() if k >= 1 and b <= 12 and b != target
    ]
    king_shift = 12 * width

    state0 = pack(counts)

    def bound(state: int, n: int) -> int:
        lone = 0
        for r in lone_ranks:
            lone += (state >> (r * width)) & field
        k = (state >> king_shift) & field
        if lone > k:
            lone = k
        if lone > n:
            lone = n
        simple = lone + (n - lone) // 2
        if prices is None:
            return simple
        total = 0
        for i in range(NUM_RANKS):
            total += ((state >> (i * width)) & field) * scaled[i]
        lp = total // 1_000_000
        return lp if lp < simple else simple

    # reached[state] = (a number of stacks known reachable, the first move to
    # reach it); most[state] = a proven upper bound. A goal-directed search
    # ("can this state make `goal` more stacks?") cuts far more than computing
    # exact values everywhere: it stops at the first packing that is enough.
    reached: dict[int, tuple[int, int | None]] = {}
    most: dict[int, int] = {}

    def can(state: int, n: int, goal: int) -> bool:
        if goal <= 0:
            return True
        hit = reached.get(state)
        if hit is not None and hit[0] >= goal:
            return True
        cap = most.get(state)
        if cap is None:
            cap = bound(state, n)
            most[state] = cap
        if cap < goal:
            return False
        low_bits = state & ~(field << king_shift)
        low = ((low_bits & -low_bits).bit_length() - 1) // width
        for shape, size in by_low[low]:
            rest = (state | guard) - shape
            if rest & guard != guard:
                continue
            rest ^= guard
            if can(rest, n - size, goal - 1):
                reached[state] = (goal, shape)
                return True
        here = (state >> (low * width)) & field
        if can(state & ~(field << (low * width)), n - here, goal):
            reached[state] = (goal, -1 - low)
            return True
        most[state] = goal - 1
        return False

    n0 = sum(counts[:12])
    goal = bound(state0, n0)
    while goal > 0 and not can(state0, n0, goal):
        goal -= 1

    # Walk the stored first moves to the shapes themselves.
    out: list[tuple[int, ...]] = []
    state = state0
    while goal > 0:
        _, step = reached[state]
        assert step is not None
        choice = step
        if choice < 0:
            low = -1 - choice
            state &= ~(field << (low * width))
            continue
        out.append(tuple((choice >> (i * width)) & field for i in range(NUM_RANKS)))
        state -= choice
        goal -= 1
    return out


def _lp_prices(counts: Sequence[int], shapes: Sequence[tuple[int, ...]]) -> list[float] | None:
    """Rank prices y >= 0 with y . shape >= 1 for every shape (a dual solution of
    max sum x subject to sum x_s * shape <= counts), or None if the simplex fails.

    A small dense simplex, Bland's rule; the prices are then scaled up so that
    every shape provably costs at least 1 despite rounding.
    """
    rows = [r for r in range(NUM_RANKS) if counts[r]]
    m = len(shapes)
    width = m + len(rows)
    table = []
    for j, r in enumerate(rows):
        row = [float(s[r]) for s in shapes] + [0.0] * len(rows) + [float(counts[r])]
        row[m + j] = 1.0
        table.append(row)
    cost = [-1.0] * m + [0.0] * (len(rows) + 1)
    eps = 1e-9
    for _ in range(2000):
        enter = next((c for c in range(width) if cost[c] < -eps), None)
        if enter is None:
            break
        leave = None
        best_ratio = 0.0
        for i, row in enumerate(table):
            a = row[enter]
            if a > eps:
                ratio = row[-1] / a
                if leave is None or ratio < best_ratio - eps:
                    leave, best_ratio = i, ratio
        if leave is None:  # pragma: no cover - bounded: counts are finite
            return None
        pivot = table[leave]
        a = pivot[enter]
        pivot = [v / a for v in pivot]
        table[leave] = pivot
        for i, row in enumerate(table):
            if i != leave and row[enter] != 0.0:
                f = row[enter]
                table[i] = [v - f * p for v, p in zip(row, pivot, strict=True)]
        f = cost[enter]
        cost = [v - f * p for v, p in zip(cost, pivot, strict=True)]
    else:  # pragma: no cover
        return None
    prices = [0.0] * NUM_RANKS
    for j, r in enumerate(rows):
        prices[r] = max(0.0, cost[m + j])
    worst = min(sum(p * c for p, c in zip(prices, s, strict=True)) for s in shapes)
    if worst <= 0.5:  # pragma: no cover - numerically lost
        return None
    factor = (1.0 / worst) * (1 + 1e-9)
    return [p * factor for p in prices]


def plain_memo_best(
    counts: Sequence[int], dice: tuple[int, int], deadline: float | None = None
) -> int | None:
    """The plain memoised search over rank counts (baseline for the benchmark).

    Every stack containing the lowest remaining rank is tried, with memo on the
    remaining counts; no forced moves, no minimal shapes, no bound. Returns the
    best points, or None when ``deadline`` (a ``time.perf_counter`` value)
    passes first.
    """
    import time

    d1, d2 = dice
    target = d1 + d2
    memo: dict[tuple[int, ...], int] = {}

    class _Timeout(Exception):
        pass

    calls = 0

    def best(state: tuple[int, ...]) -> int:
        nonlocal calls
        hit = memo.get(state)
        if hit is not None:
            return hit
        calls += 1
        if deadline is not None and calls % 512 == 0 and time.perf_counter() > deadline:
            raise _Timeout
        low = next((i for i in range(12) if state[i]), None)
        if low is None:
            memo[state] = 0
            return 0
        dropped = list(state)
        dropped[low] -= 1
        top = best(tuple(dropped))
        for stack in stack_shapes(state, target, need_rank=low):
            points = counts_points(stack, dice)
            rest = tuple(a - b for a, b in zip(state, stack, strict=True))
            value = points + best(rest)
            if value > top:
                top = value
        memo[state] = top
        return top

    try:
        return best(tuple(counts))
    except _Timeout:
        return None


# --- every stack a hand can make (for the legal actions) --------------------
def stack_shapes(
    counts: Sequence[int], target: int, need_rank: int | None = None
) -> list[tuple[int, ...]]:
    """Every rank-count vector (Kings last) within ``counts`` that is a stack.

    Search over ranks from Queen down to Ace, choosing how many of each, with
    pruning: the part still to choose must be able to reach a value that,
    with the Kings held, makes the target by adding or by subtracting.
    ``need_rank`` (an index 0..11) keeps only stacks whose lowest rank is it.
    """
    kings = counts[12]
    bases = king_bases(target, kings)
    base_mask = 0
    for b in bases:
        base_mask |= 1 << b
    lowest = 0 if need_rank is None else need_rank
    if need_rank is not None and not counts[need_rank]:
        return []
    # the ranks held, highest first; reach[j]: sums the ranks after j can make
    present = [i for i in range(11, lowest - 1, -1) if counts[i]]
    reach = [1] * (len(present) + 1)
    for j in range(len(present) - 1, -1, -1):
        i = present[j]
        r = 1
        for _ in range(counts[i]):
            r |= r << (i + 1)
        reach[j] = _sumset(reach[j + 1], r)
    # the final sums allowed once the largest card is known: adding makes a
    # base, or subtracting (2 * top - final) does
    mask_for_top = [0] * 13
    for top in range(1, 13):
        m = base_mask
        for b in bases:
            if 2 * top - b > 0:
                m |= 1 << (2 * top - b)
        mask_for_top[top] = m
    biggest_base = max(bases)
    out: list[tuple[int, ...]] = []
    vec = [0] * 12
    last = len(present) - 1

    def go(j: int, total: int, top: int, n: int) -> None:
        # decide how many cards of rank present[j]; higher ranks are chosen
        i = present[j]
        v = i + 1
        below = reach[j + 1]
        first = 1 if i == need_rank else 0
        for c in range(first, counts[i] + 1):
            t = total + c * v
            new_top = top or (v if c else 0)
            if new_top:
                if t > biggest_base and t >= 2 * new_top:
                    break
                if not (below << t) & mask_for_top[new_top]:
                    continue
            vec[i] = c
            if j == last:
                m = n + c
                if m:
                    k_add = bases.get(t)
                    if k_add is not None:
                        out.append((*vec, k_add))
                    if m >= 2:
                        k_sub = bases.get(2 * new_top - t)
                        if k_sub is not None and k_sub != k_add:
                            out.append((*vec, k_sub))
            else:
                go(j + 1, t, new_top, n + c)
        vec[i] = 0

    if present:
        go(0, 0, 0, 0)
    return out


def _sumset(a: int, b: int) -> int:
    out = 0
    shift = 0
    while b:
        if b & 1:
            out |= a << shift
        b >>= 1
        shift += 1
    return out

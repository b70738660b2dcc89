"""Union-find over the few squares of one sheet, for the plans' sheet analysis (``evaluator``).

``partition(items, pairs)`` joins ``items`` along ``pairs`` and gives ``(root, members)``:
``root[x]`` is the smallest item of ``x``'s set and ``members[r]`` lists the items of the set with
root ``r``. Sets are merged by relabelling the smaller one, which on sheets of about 50 squares is
faster than path-halving parents followed by a pass to read every root.
"""

from __future__ import annotations


def partition(items, pairs) -> tuple[dict[int, int], dict[int, list[int]]]:
    """``(root, members)`` of the sets ``pairs`` joins over ``items`` (roots: each set's smallest item)."""
    root = {x: x for x in items}
    members = {x: [x] for x in root}
    for a, b in pairs:
        ra, rb = root[a], root[b]
        if ra == rb:
            continue
        if ra > rb:
            ra, rb = rb, ra
        moved = members.pop(rb)
        members[ra] += moved
        for x in moved:
            root[x] = ra
    return root, members

#!/usr/bin/env python3
"""The strings reachable in a keyed archive, read by Python's plistlib alone.

Usage: reachable_strings.py ARCHIVE

Prints one JSON object:
  {"top": [...], "root": [...], "rootCyclic": bool}
"top" holds every string reachable from $top, "root" every string reachable from
$top["root"] (or from $top when there is no "root"), each sorted. Objects are followed
through UIDs (XML's {"CF$UID": n} included), once per object; class entries
({$classname, $classes}) and the $class reference are not values, and field names are
not collected (they are names, not values). A string is a plain string object or value;
NSString objects reach theirs through NS.string. "rootCyclic" says whether a UID cycle
is reachable from the root (an object that leads back to itself).

The independent oracle of the reading tests: no code of the package is used here.
"""
import json
import plistlib
import sys


def as_uid(value):
    if isinstance(value, plistlib.UID):
        return value.data
    if isinstance(value, dict) and list(value.keys()) == ["CF$UID"] and type(value["CF$UID"]) is int:
        return value["CF$UID"]
    return None


def is_class_entry(value):
    return isinstance(value, dict) and "$classname" in value and "$class" not in value


def leaves(value):
    """The UIDs and strings inside a value, through its arrays and dictionaries ($class aside)."""
    stack = [value]
    while stack:
        item = stack.pop()
        uid = as_uid(item)
        if uid is not None:
            yield uid
        elif isinstance(item, str):
            yield item
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k != "$class")


def targets(objects, uid):
    """What following UID `uid` reaches: nothing for nil, out of range or a class entry."""
    if uid == 0 or uid >= len(objects) or is_class_entry(objects[uid]):
        return []
    return list(leaves(objects[uid]))


def reachable(objects, start_values):
    strings = set()
    seen = set()
    pending = list(leaves(list(start_values)))
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            strings.add(item)
        elif item not in seen:
            seen.add(item)
            pending.extend(targets(objects, item))
    return strings


def has_cycle(objects, start_values):
    """Whether a UID cycle is reachable: an iterative depth-first search with colours."""
    state = {}  # uid -> 1 (open) or 2 (done)

    def children(uid):
        return iter([t for t in targets(objects, uid) if not isinstance(t, str)])

    for start in leaves(list(start_values)):
        if isinstance(start, str) or state.get(start) == 2:
            continue
        state[start] = 1
        stack = [(start, children(start))]
        while stack:
            uid, it = stack[-1]
            advanced = False
            for child in it:
                mark = state.get(child)
                if mark == 1:
                    return True
                if mark is None:
                    state[child] = 1
                    stack.append((child, children(child)))
                    advanced = True
                    break
            if not advanced:
                state[uid] = 2
                stack.pop()
    return False


def main():
    with open(sys.argv[1], "rb") as handle:
        archive = plistlib.load(handle)
    objects = archive["$objects"]
    top = archive["$top"]
    root_values = [top["root"]] if "root" in top else list(top.values())
    print(json.dumps({
        "top": sorted(reachable(objects, top.values())),
        "root": sorted(reachable(objects, root_values)),
        "rootCyclic": has_cycle(objects, root_values),
    }, ensure_ascii=True))


main()

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


def reachable(objects, start_values):
    strings = set()
    seen = set()
    pending = list(start_values)
    while pending:
        value = pending.pop()
        uid = as_uid(value)
        if uid is not None:
            if uid == 0 or uid in seen or uid >= len(objects):
                continue
            seen.add(uid)
            target = objects[uid]
            if is_class_entry(target):
                continue
            if isinstance(target, dict):
                pending.extend(v for k, v in target.items() if k != "$class")
            else:
                pending.append(target)
        elif isinstance(value, str):
            strings.add(value)
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, dict):
            pending.extend(v for k, v in value.items() if k != "$class")
    return strings


def has_cycle(objects, start_values):
    """Whether a UID cycle is reachable: an iterative depth-first search with colours."""
    state = {}  # uid -> 1 (open) or 2 (done)

    def children(value):
        result = []
        stack = [value]
        while stack:
            item = stack.pop()
            uid = as_uid(item)
            if uid is not None:
                if 0 < uid < len(objects) and not is_class_entry(objects[uid]):
                    result.append(uid)
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                stack.extend(v for k, v in item.items() if k != "$class")
        return result

    for start in children(list(start_values)):
        if state.get(start) == 2:
            continue
        stack = [(start, iter(children(objects[start] if isinstance(objects[start], (dict, list)) else [])))]
        state[start] = 1
        while stack:
            uid, it = stack[-1]
            advanced = False
            for child in it:
                mark = state.get(child)
                if mark == 1:
                    return True
                if mark is None:
                    state[child] = 1
                    target = objects[child]
                    stack.append((child, iter(children(target if isinstance(target, (dict, list)) else []))))
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

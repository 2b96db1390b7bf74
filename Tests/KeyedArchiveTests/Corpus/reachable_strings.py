#!/usr/bin/env python3
"""The strings reachable in a keyed archive, read by Python's plistlib alone.

Usage: reachable_strings.py ARCHIVE

Prints one JSON object:
  {"top": [...], "root": [...], "rootCyclic": bool, "rootAsText": [...], "rootDictionaryKeys": [...]}
"top" holds every string reachable from $top, "root" every string reachable from
$top["root"] (or from $top when there is no "root"), each sorted.
"rootAsText" is "root" with each attributed string (NSAttributedString or subclass, by
its $classes) reached as its text: its NSAttributes and NSAttributeInfo are not followed
(what a generic value holds when it asks for a String first, which reads an attributed
string's text). "rootDictionaryKeys" holds the keys that are plain strings of every
NSDictionary (or subclass) that walk reaches, in its NS.keys or NS.key.N layout: what a
generic value must show as dictionary keys, not as elements. Objects are followed
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


def targets(objects, uid, as_text=False):
    """What following UID `uid` reaches: nothing for nil, out of range or a class entry;
    with as_text, an attributed string's text only."""
    if uid == 0 or uid >= len(objects) or is_class_entry(objects[uid]):
        return []
    obj = objects[uid]
    if as_text and has_class(objects, obj, ATTRIBUTED_STRING_CLASSES):
        obj = {k: v for k, v in obj.items() if k not in ("NSAttributes", "NSAttributeInfo")}
    return list(leaves(obj))


def reachable(objects, start_values, seen=None, as_text=False):
    """The strings reachable from start_values; `seen` collects the UIDs followed."""
    strings = set()
    seen = set() if seen is None else seen
    pending = list(leaves(list(start_values)))
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            strings.add(item)
        elif item not in seen:
            seen.add(item)
            pending.extend(targets(objects, item, as_text))
    return strings


DICTIONARY_CLASSES = {"NSDictionary", "NSMutableDictionary"}
ATTRIBUTED_STRING_CLASSES = {"NSAttributedString", "NSMutableAttributedString"}


def has_class(objects, obj, classes):
    """Whether obj is an archived object whose class chain lists one of classes."""
    if not isinstance(obj, dict) or "$class" not in obj:
        return False
    uid = as_uid(obj["$class"])
    if uid is None or uid >= len(objects) or not is_class_entry(objects[uid]):
        return False
    entry = objects[uid]
    names = set(entry.get("$classes") or []) | {entry.get("$classname")}
    return bool(names & classes)


def dictionary_keys(objects, uids):
    """The plain-string keys of the NSDictionary objects among uids."""
    keys = set()
    for uid in uids:
        if uid == 0 or uid >= len(objects) or not has_class(objects, objects[uid], DICTIONARY_CLASSES):
            continue
        obj = objects[uid]
        refs = list(obj.get("NS.keys") or [])
        index = 0
        while "NS.key.%d" % index in obj:
            refs.append(obj["NS.key.%d" % index])
            index += 1
        for ref in refs:
            key_uid = as_uid(ref)
            key = objects[key_uid] if key_uid is not None and key_uid < len(objects) else ref
            if isinstance(key, str):
                keys.add(key)
    return keys


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
    text_objects = set()
    as_text = reachable(objects, root_values, text_objects, as_text=True)
    print(json.dumps({
        "top": sorted(reachable(objects, top.values())),
        "root": sorted(reachable(objects, root_values)),
        "rootCyclic": has_cycle(objects, root_values),
        "rootAsText": sorted(as_text),
        "rootDictionaryKeys": sorted(dictionary_keys(objects, text_objects)),
    }, ensure_ascii=True))


main()

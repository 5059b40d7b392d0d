"""Prints a commscope-opt JSON plan one line per fact, for FileCheck: programs, their
host orchestrators, each scope with its devices and slots, each view, each diagnostic."""

import json
import sys


def devices(d):
    return d if d == "all" else "[" + ", ".join(str(x) for x in d) + "]"


doc = json.load(sys.stdin)
for p in doc["programs"]:
    print(f"PROGRAM {p['name']} line {p['line']}")
    for f in p["functions"]:
        print(f"  FUNCTION {f['name']}")
        for s in f["scopes"]:
            slots = ", ".join(f"{x['name']}={x['size']}" for x in s["slots"])
            print(f"    SCOPE {s['name']} {devices(s['devices'])}: {slots}")
        for v in f["views"]:
            print(f"    VIEW {v['name']} -> {v['window_buffer']}")
for d in doc["diagnostics"]:
    where = (d["file"] + ":") if "file" in d else ""
    print(f"DIAG {d['code']} {where}{d['line']}:{d['column']} {d['message']}")
    for n in d["notes"]:
        print(f"  NOTE {n['line']}:{n['column']} {n['message']}")
print("END")

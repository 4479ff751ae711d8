#!/usr/bin/env python3
# expect_check.py EXPECT.json AUDIT.json: the counts a generated trace was built with
# (tests/helpers/gen_trace.c writes EXPECT) against `rqpath audit --format json`'s.
# Prints one line per difference and exits 1 if there is any, else prints a summary.
import json
import sys


def main():
    if len(sys.argv) != 3:
        print("usage: expect_check.py EXPECT.json AUDIT.json", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        want = json.load(f)
    with open(sys.argv[2]) as f:
        got = json.load(f)
    bad = []
    if got["trace"]["events"] != want["events"]:
        bad.append("events: audit %s, generated %s" % (got["trace"]["events"], want["events"]))
    for name, n in want["counts"].items():
        if got["counts"].get(name) != n:
            bad.append("counts.%s: audit %s, generated %s" % (name, got["counts"].get(name), n))
    for finding, fields in want["findings"].items():
        have = got["findings"].get(finding, {})
        for k, n in fields.items():
            if have.get(k) != n:
                bad.append("%s.%s: audit %s, generated %s" % (finding, k, have.get(k), n))
    dq = got["trace"]["data_quality"]
    for k in ("repairs", "switch_mismatches", "markers_ignored", "mask_violations"):
        if dq.get(k):
            bad.append("data_quality.%s: %s, generated traces have none" % (k, dq[k]))
    for line in bad:
        print(line)
    if bad:
        return 1
    print(" ".join("%s %d/%d/%d/%d" % (f, v["exact"], v["inferred"], v["possible"],
                                        v["not_judged"])
                   for f, v in want["findings"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

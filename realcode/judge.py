#!/usr/bin/env python3
"""Judges outboxify scan findings on the real services against the labels.

    realcode/judge.py [--half T|H] [--out DIR] [--list] [name ...]

Reads the scan json run.sh left in $REALCODE/out (or --out), the hand labels
(realcode/labels/<name>.tsv) and the verdicts on findings outside the labels
(realcode/judgments/<name>.tsv: file, line, rule, verdict TP|FP, reason).

A label is found when a finding sits in its meeting file and either reports
its publish line or is in its meeting function (same function name). A
finding that matches no label needs a verdict: TP (a dual write the labels
missed, counted in recall's numerator and denominator too) or FP. Findings
without a verdict are listed (--list) and counted as unjudged.

Precision = (findings matching a label + TP verdicts) / all findings.
Recall = (labels found + TP verdicts) / (labels + TP verdicts).
"""
import csv
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
half = None
out = os.environ.get("REALCODE", "/work/realcode") + "/out"
show = False
names = []
while args:
    a = args.pop(0)
    if a == "--half":
        half = args.pop(0)
    elif a == "--out":
        out = args.pop(0)
    elif a == "--list":
        show = True
    else:
        names.append(a)

services = []
for line in open(os.path.join(here, "services.tsv")):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    services.append({"name": f[0], "module": f[3], "size": f[4], "half": f[5]})


def short(func):
    """the function or method name of a full or short Go function name"""
    func = func.split("$")[0]
    m = re.search(r"([A-Za-z0-9_]+)$", func.strip())
    return m.group(1) if m else func


def rows(path):
    if not os.path.exists(path):
        return None
    with open(path) as fh:
        lines = [l for l in fh if l.strip() and not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


total = {"labels": 0, "found": 0, "findings": 0, "matched": 0, "tp": 0, "fp": 0, "unjudged": 0}
print("| service | half | labels | found | findings | on a label | judged TP | judged FP | unjudged | precision | recall |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for s in services:
    if names and s["name"] not in names or half and s["half"] != half:
        continue
    labels = rows(os.path.join(here, "labels", s["name"] + ".tsv"))
    if labels is None:
        print(f"| {s['name']} | {s['half']} | no labels | | | | | | | | |")
        continue
    scan_path = os.path.join(out, s["name"] + ".scan.json")
    try:
        findings = json.load(open(scan_path)).get("findings") or []
    except Exception:
        print(f"| {s['name']} | {s['half']} | {len(labels)} | no scan output | | | | | | | |")
        continue
    prefix = "" if s["module"] == "." else s["module"].rstrip("/") + "/"
    verdicts = {}
    for v in rows(os.path.join(here, "judgments", s["name"] + ".tsv")) or []:
        verdicts[(v["file"], int(v["line"]), v["rule"])] = v
    found = set()
    matched = tp = fp = 0
    unjudged = []
    for fd in findings:
        file = prefix + fd["file"]
        hit = False
        for i, lb in enumerate(labels):
            if lb["meeting_file"] != file:
                continue
            if str(fd["line"]) == lb["publish_line"].strip() or short(fd.get("func", "")) == short(lb["meeting_func"]):
                found.add(i)
                hit = True
        if hit:
            matched += 1
            continue
        v = verdicts.get((file, fd["line"], fd["rule"]))
        if v is None:
            unjudged.append(fd)
        elif v["verdict"] == "TP":
            tp += 1
        else:
            fp += 1
    n = len(findings)
    prec = f"{(matched + tp) / n:.2f}" if n else "-"
    den = len(labels) + tp
    rec = f"{(len(found) + tp) / den:.2f}" if den else "-"
    print(f"| {s['name']} | {s['half']} | {len(labels)} | {len(found)} | {n} | {matched} | {tp} | {fp} | {len(unjudged)} | {prec} | {rec} |")
    for k, v in (("labels", len(labels)), ("found", len(found)), ("findings", n), ("matched", matched), ("tp", tp), ("fp", fp), ("unjudged", len(unjudged))):
        total[k] += v
    if show:
        for i, lb in enumerate(labels):
            if i not in found:
                print(f"    missed {lb['id']} {lb['rule']} {lb['meeting_file']}:{lb['publish_line']} {lb['meeting_func']}", file=sys.stderr)
        for fd in unjudged:
            w = fd.get("write") or {}
            print(f"    unjudged {prefix}{fd['file']}\t{fd['line']}\t{fd['rule']}\t{fd.get('func','')}\twrite {w.get('file','')}:{w.get('line','')} {w.get('call','')}\tpublish {fd['publish'].get('call','')}", file=sys.stderr)
t = total
n = t["findings"]
prec = f"{(t['matched'] + t['tp']) / n:.2f}" if n else "-"
den = t["labels"] + t["tp"]
rec = f"{(t['found'] + t['tp']) / den:.2f}" if den else "-"
print(f"| all | {half or 'both'} | {t['labels']} | {t['found']} | {n} | {t['matched']} | {t['tp']} | {t['fp']} | {t['unjudged']} | {prec} | {rec} |")

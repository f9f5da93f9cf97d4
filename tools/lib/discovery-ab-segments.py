#!/usr/bin/env python3
"""Splits each traced discovery of a tools/discovery-ab run into steps (see tools/discovery-ab --trace).

Per variant, medians (and counts) of, in seconds:
  both:    start->live the subscribe session's start to the engine starting the subscribe (its `start` trace
                       line; builds from issue 26 on): the API's and the CLI's setup
  passive: start->rx   the session's start to the engine hearing the publish it reported (the last one heard
                       before the record: waiting for a DW)
           rx->print   the engine hearing it to the CLI's "discovered" record (engine, API, CLI)
  active:  start->tx   session start to the engine's subscribe frame handed to the kernel (trace after the reply)
           tx->peer    that to the publisher's engine hearing it (the next DW)
           peer->reply the publisher's engine hearing it to its reply handed to the kernel (netlink round trip)
           tx->reader  instead of the two above, with a publisher whose responder answers on the netlink reader's
                       thread (issue 26): the subscribe's TX line to the reply on the socket (its `reader tx` line)
           reader->eng that reply to the publisher's engine hearing the subscribe (the hop the responder saves)
           reply->rx   that to the subscriber's engine hearing the reply (same DW if the reply made it)
           rx->print   as for passive
"""
import glob, json, os, re, statistics, sys

d = sys.argv[1]
line_re = re.compile(r"^trace (\d+\.\d+) (.*)$")

def trace(path):
    out = []
    try:
        for line in open(path, errors="replace"):
            m = line_re.match(line.strip())
            if m: out.append((float(m.group(1)), m.group(2)))
    except OSError:
        pass
    return out

def discovered(path):
    try:
        for line in open(path):
            if '"event":"discovered"' in line:
                r = json.loads(line)
                return r["time"] - r["elapsed"], r["time"]
    except (OSError, ValueError, KeyError):
        pass
    return None

seg = {}
def add(label, kind, name, value):
    if value is not None and value >= 0: seg.setdefault((label, kind, name), []).append(value)

for out in sorted(glob.glob(os.path.join(d, "*-*-*-*.out"))):
    base = os.path.basename(out)[:-4]
    label, rnd, run, kind = base.split("-")
    t = discovered(out)
    if not t: continue
    start, printed = t
    tr = trace(out[:-4] + ".trace")
    live = next((ts for ts, s in tr if ts >= start - 0.001 and s.startswith("start subscribe#")), None)
    add(label, kind, "start->live", live - start if live else None)
    if kind == "passive":
        rx = next((ts for ts, s in reversed(tr) if start <= ts <= printed and s.startswith("rx from") and "[publish#" in s), None)
        if rx: add(label, kind, "start->rx", rx - start); add(label, kind, "rx->print", printed - rx)
        continue
    tx = next((ts for ts, s in tr if s.startswith("tx to") and "[subscribe#" in s), None)
    rx = next((ts for ts, s in tr if re.match(r"rx from .* \[publish#\d+>[1-9]", s)), None)
    pub = trace(os.path.join(d, "a%s%s.log" % (label, rnd)))
    prx = next((ts for ts, s in pub if tx and ts >= tx - 0.02 and s.startswith("rx from") and "[subscribe#" in s), None)
    # Builds from issue 26's responder answer on the netlink reader's thread, before the engine hears the
    # subscribe: their `reader tx to` line (logged after the reply is on the socket) is the reply.
    rtx = next((ts for ts, s in pub if tx and ts >= tx - 0.02 and s.startswith("reader tx to")), None)
    ptx = rtx or next((ts for ts, s in pub if prx and ts >= prx and s.startswith("tx to") and "ff:ff:ff:ff:ff:ff" not in s), None)
    if rtx and prx: add(label, kind, "reader->eng", prx - rtx)
    add(label, kind, "start->tx", tx - start if tx else None)
    if rtx:
        add(label, kind, "tx->reader", rtx - tx)
    else:
        add(label, kind, "tx->peer", prx - tx if tx and prx else None)
        add(label, kind, "peer->reply", ptx - prx if prx and ptx else None)
    add(label, kind, "reply->rx", rx - ptx if rx and ptx else None)
    add(label, kind, "rx->print", printed - rx if rx else None)

labels = []
for line in open(os.path.join(d, "variants.tsv")):
    labels.append(line.split("\t")[0])
names = ["start->live", "start->rx", "rx->print", "start->tx", "tx->peer", "peer->reply", "tx->reader", "reader->eng", "reply->rx"]
print("%-8s %-8s %-12s %4s %8s %8s" % ("variant", "kind", "step", "n", "median", "mean"))
for kind in ("passive", "active"):
    for name in names:
        for label in labels:
            xs = seg.get((label, kind, name))
            if xs: print("%-8s %-8s %-12s %4d %8.3f %8.3f" % (label, kind, name, len(xs), statistics.median(xs), statistics.mean(xs)))

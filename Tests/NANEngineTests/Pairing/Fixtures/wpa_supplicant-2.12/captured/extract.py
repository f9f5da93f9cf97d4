#!/usr/bin/env python3
"""Writes frames wpa_supplicant logged as it handed them to the kernel into .hex files, one whole management frame
(802.11 header first) per file, as hex on one line.

    extract.py LOG LINE:NAME [LINE:NAME ...]

LOG is a `wpa_supplicant -dd -t` log (the interop-pairing scenario keeps it as interop-pairing/P-wpas.log), LINE the
1-based number of a `CMD_FRAME - hexdump(len=N): ...` line in it, NAME the file to write (NAME.hex). The length
in the line is checked against the bytes.
"""
import re
import sys

lines = open(sys.argv[1], errors="replace").read().split("\n")
for spec in sys.argv[2:]:
    number, name = spec.split(":", 1)
    line = lines[int(number) - 1]
    match = re.search(r"CMD_FRAME - hexdump\(len=(\d+)\): ([0-9a-f ]+)$", line)
    if not match:
        sys.exit(f"line {number} is not a CMD_FRAME hexdump: {line[:80]}")
    data = match.group(2).split()
    if len(data) != int(match.group(1)):
        sys.exit(f"line {number}: {len(data)} bytes, the log says {match.group(1)}")
    with open(name + ".hex", "w") as out:
        out.write("".join(data) + "\n")
    print(f"{name}.hex: {len(data)} bytes from line {number}")

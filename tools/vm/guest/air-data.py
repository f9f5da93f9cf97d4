#!/usr/bin/env python3
"""Counts the 802.11 data frames mac80211_hwsim transmits, as its monitor interface (hwsim0, in the initial
network namespace) sees them, and looks for a known payload in them: the proof that a secure data path
encrypts what it carries and an open one does not.

    air-data.py PATTERN_HEX [INTERFACE]   (default hwsim0) prints "listening" once the capture runs, then, when
                                          it gets SIGINT or SIGTERM, one JSON line:
        {"data": N, "unicast": U, "protected": P, "plainUnicast": Q, "pattern": K}
    data: data frames that carry a body (Null and QoS Null are left out); unicast: those sent to one station;
    protected: those with the Protected bit (CCMP or GCMP); plainUnicast: unicast ones without it; pattern:
    frames whose bytes, 802.11 header included, contain PATTERN anywhere.
"""
import ctypes
import json
import signal
import socket
import struct
import sys

SO_ATTACH_FILTER = 26
# Classic BPF: keep data frames (802.11 type 2) and drop the rest in the kernel. The radiotap length
# (little-endian, bytes 2-3) locates the 802.11 frame control.
DATA_ONLY = [
    (0x30, 0, 0, 3),        # ldb [3]        high byte of the radiotap length
    (0x64, 0, 0, 8),        # lsh #8
    (0x02, 0, 0, 0),        # st M[0]
    (0x30, 0, 0, 2),        # ldb [2]        low byte
    (0x07, 0, 0, 0),        # tax
    (0x60, 0, 0, 0),        # ld M[0]
    (0x0C, 0, 0, 0),        # add x          A = radiotap length
    (0x07, 0, 0, 0),        # tax
    (0x50, 0, 0, 0),        # ldb [x + 0]    frame control, first byte
    (0x54, 0, 0, 0x0C),     # and #0x0c      its type bits
    (0x15, 0, 1, 0x08),     # jeq #0x08      data?
    (0x06, 0, 0, 0x40000),  # ret: keep it
    (0x06, 0, 0, 0),        # ret: drop it
]


def attach_filter(sock):
    program = b"".join(struct.pack("HBBI", *instruction) for instruction in DATA_ONLY)
    buffer = ctypes.create_string_buffer(program)
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, struct.pack("HL", len(DATA_ONLY), ctypes.addressof(buffer)))
    return buffer


class Stop(Exception):
    pass


def stop(_signal, _frame):
    raise Stop()


def main():
    if not 1 <= len(sys.argv) - 1 <= 2:
        sys.exit(__doc__)
    pattern = bytes.fromhex(sys.argv[1])
    interface = sys.argv[2] if len(sys.argv) == 3 else "hwsim0"
    counts = {"data": 0, "unicast": 0, "protected": 0, "plainUnicast": 0, "pattern": 0}
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    keep = attach_filter(sock)  # noqa: F841 (the program must outlive the call)
    sock.bind((interface, 0))
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print("listening", flush=True)
    try:
        while True:
            frame = sock.recv(8192)
            if len(frame) < 4:
                continue
            (length,) = struct.unpack_from("<H", frame, 2)
            dot11 = frame[length:]
            if len(dot11) < 24 or dot11[0] & 0x0C != 0x08:
                continue
            subtype = dot11[0] >> 4
            if subtype in (4, 12):   # Null, QoS Null: no body
                continue
            counts["data"] += 1
            unicast = not dot11[4] & 0x01
            protected = bool(dot11[1] & 0x40)
            counts["unicast"] += unicast
            counts["protected"] += protected
            counts["plainUnicast"] += unicast and not protected
            counts["pattern"] += pattern in dot11
    except Stop:
        pass
    print(json.dumps(counts), flush=True)


if __name__ == "__main__":
    main()

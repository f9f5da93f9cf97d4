#!/usr/bin/env python3
"""Writes one line per NAN action frame that mac80211_hwsim transmits, as its monitor interface (hwsim0, in
the initial network namespace) sees it: when it was seen (the guest's wall clock), the channel, the sending
radio's TSF and that TSF's position in the 512-TU DW period (in TU), the frame kind (NAF subtype or SDF),
source and destination. Used by datapath-ndltx-bench to see on which channel and where in the period each
data-path NAF went out.

    naf-capture.py [--hex] [--pairing] [INTERFACE]
                                          (default hwsim0; runs until killed, one flushed line per frame;
                                          --hex adds each NAF's bytes, 802.11 header first, as hex;
                                          --pairing adds a line for every Authentication frame, with its
                                          algorithm, sequence and status, and for every protected action
                                          frame, whose body the monitor sees encrypted: "protected-action")
"""
import ctypes
import socket
import struct
import sys
import time

PERIOD_US = 512 * 1024


def radiotap(frame):
    """(header length, TSF or None, frequency or None) of a radiotap header."""
    _, _, length = struct.unpack_from("<BBH", frame, 0)
    words = []
    offset = 4
    while True:
        (present,) = struct.unpack_from("<I", frame, offset)
        words.append(present)
        offset += 4
        if not present & (1 << 31):
            break
    present = words[0]
    tsf = frequency = None
    # Fields in bit order with their alignment and size: TSFT, FLAGS, RATE, CHANNEL.
    for bit, align, size in ((0, 8, 8), (1, 1, 1), (2, 1, 1), (3, 2, 4)):
        if not present & (1 << bit):
            continue
        offset = (offset + align - 1) // align * align
        if bit == 0:
            (tsf,) = struct.unpack_from("<Q", frame, offset)
        elif bit == 3:
            (frequency,) = struct.unpack_from("<H", frame, offset)
        offset += size
    return length, tsf, frequency


def mac(raw):
    return ":".join("%02x" % b for b in raw)


# A classic BPF program for the socket: keep management frames (802.11 type 0) and drop the rest before they
# reach Python. Without it every data frame of a TCP or iperf exchange woke this process, and under software
# emulation that took a core's worth of the guest's time. The radiotap length (little-endian, bytes 2-3)
# locates the 802.11 frame control.
SO_ATTACH_FILTER = 26
MANAGEMENT_ONLY = [
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
    (0x15, 0, 1, 0),        # jeq #0         management?
    (0x06, 0, 0, 0x40000),  # ret: keep it
    (0x06, 0, 0, 0),        # ret: drop it
]


def attach_management_filter(sock):
    program = b"".join(struct.pack("HBBI", *instruction) for instruction in MANAGEMENT_ONLY)
    buffer = ctypes.create_string_buffer(program)
    fprog = struct.pack("HL", len(MANAGEMENT_ONLY), ctypes.addressof(buffer))
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)
    return buffer


def main():
    args = sys.argv[1:]
    with_hex = "--hex" in args
    pairing = "--pairing" in args
    args = [a for a in args if a not in ("--hex", "--pairing")]
    interface = args[0] if args else "hwsim0"
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    keep = attach_management_filter(sock)  # noqa: F841 (the program must outlive the call)
    sock.bind((interface, 0))
    out = sys.stdout
    while True:
        frame = sock.recv(4096)
        seen = time.time()
        try:
            length, tsf, frequency = radiotap(frame)
        except struct.error:
            continue
        mgmt = frame[length:]
        if pairing and len(mgmt) >= 30 and mgmt[0] == 0xB0:
            algorithm, sequence, status = struct.unpack_from("<HHH", mgmt, 24)
            out.write("%.6f auth alg %d seq %d status %d freq %s src %s dst %s\n" % (
                seen, algorithm, sequence, status, frequency, mac(mgmt[10:16]), mac(mgmt[4:10])))
            out.flush()
            continue
        if pairing and len(mgmt) >= 24 and mgmt[0] == 0xD0 and mgmt[1] & 0x40:
            out.write("%.6f protected-action freq %s len %d src %s dst %s\n" % (
                seen, frequency, len(mgmt), mac(mgmt[10:16]), mac(mgmt[4:10])))
            out.flush()
            continue
        # Action frame, public category, vendor specific, Wi-Fi Alliance OUI.
        if len(mgmt) < 31 or mgmt[0] != 0xD0 or mgmt[24] != 0x04 or mgmt[25] != 0x09 or mgmt[26:29] != b"\x50\x6f\x9a":
            continue
        kind = "naf %d" % mgmt[30] if mgmt[29] == 0x18 else ("sdf" if mgmt[29] == 0x13 else "other")
        position = "%.1f" % ((tsf % PERIOD_US) / 1024.0) if tsf is not None else "-"
        out.write("%.6f %s freq %s tsf %s pos_tu %s src %s dst %s%s\n" % (
            seen, kind, frequency, tsf, position, mac(mgmt[10:16]), mac(mgmt[4:10]),
            " hex " + mgmt.hex() if with_hex and kind.startswith("naf") else ""))
        out.flush()


if __name__ == "__main__":
    main()

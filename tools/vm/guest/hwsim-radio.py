#!/usr/bin/env python3
# DEV AID, not part of waware: creates or deletes mac80211_hwsim radios with NAN
# support over raw generic netlink. The bench uses it only when the waware binary
# has no `sim` command (WAWARE_VM_SIM=python forces it). `waware sim` is the real tool.
#   hwsim-radio.py new [--count N]   prints one radio id per line
#   hwsim-radio.py del <id>...
import os, socket, struct, sys

NETLINK_GENERIC = 16
GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 0x10, 3, 1, 2
NLM_F_REQUEST, NLM_F_ACK, NLMSG_ERROR = 1, 4, 2
HWSIM_CMD_NEW_RADIO, HWSIM_CMD_DEL_RADIO = 4, 5
HWSIM_ATTR_CHANNELS, HWSIM_ATTR_RADIO_ID, HWSIM_ATTR_SUPPORT_NAN_DEVICE = 9, 10, 30


def attr(kind, payload=b""):
    length = 4 + len(payload)
    return struct.pack("HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)


def attrs(data):
    out, i = {}, 0
    while i + 4 <= len(data):
        length, kind = struct.unpack_from("HH", data, i)
        if length < 4:
            break
        out[kind & 0x3FFF] = data[i + 4:i + length]
        i += (length + 3) & ~3
    return out


class Genl:
    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.seq = 0

    def request(self, family, cmd, payload):
        self.seq += 1
        body = struct.pack("BBH", cmd, 1, 0) + payload
        self.sock.send(struct.pack("IHHII", 16 + len(body), family, NLM_F_REQUEST | NLM_F_ACK, self.seq, 0) + body)
        reply, result = None, None
        while result is None:
            data = self.sock.recv(65536)
            i = 0
            while i + 16 <= len(data):
                length, kind, _, seq, _ = struct.unpack_from("IHHII", data, i)
                if kind == NLMSG_ERROR:
                    result = struct.unpack_from("i", data, i + 16)[0]
                elif seq == self.seq:
                    reply = data[i + 20:i + length]
                i += (length + 3) & ~3
        return result, reply

    def family(self, name):
        err, reply = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        if err < 0 or reply is None:
            sys.exit(f"hwsim-radio: generic netlink family {name} not found (is mac80211_hwsim loaded?)")
        return struct.unpack("H", attrs(reply)[CTRL_ATTR_FAMILY_ID][:2])[0]


def main(argv):
    genl = Genl()
    family = genl.family("MAC80211_HWSIM")
    if argv[:1] == ["new"]:
        count = int(argv[2]) if argv[1:2] == ["--count"] else 1
        for _ in range(count):
            err, _ = genl.request(family, HWSIM_CMD_NEW_RADIO,
                                  attr(HWSIM_ATTR_SUPPORT_NAN_DEVICE) + attr(HWSIM_ATTR_CHANNELS, struct.pack("I", 3)))
            if err < 0:
                sys.exit(f"hwsim-radio: new radio failed: {os.strerror(-err)}")
            print(err)
    elif argv[:1] == ["del"] and len(argv) > 1:
        for radio in argv[1:]:
            err, _ = genl.request(family, HWSIM_CMD_DEL_RADIO, attr(HWSIM_ATTR_RADIO_ID, struct.pack("I", int(radio))))
            if err < 0:
                sys.exit(f"hwsim-radio: delete radio {radio} failed: {os.strerror(-err)}")
    else:
        sys.exit("usage: hwsim-radio.py new [--count N] | del <id>...")


main(sys.argv[1:])

#!/usr/bin/env python3
"""Talks to a wpa_supplicant control socket (a SOCK_DGRAM unix socket), as wpa_cli does.

    wpas-ctl.py SOCKET COMMAND [ARG...]     send one command (the words joined by spaces; a literal TAB in
                                            an argument is kept), print the reply; exit 1 on FAIL or no reply
    wpas-ctl.py --serve REQUESTS REPLIES    the first form for many commands, from one process: reads requests
                                            from the FIFO REQUESTS, one a line (SOCKET, TIMEOUT and COMMAND
                                            separated by 0x1f), and writes each reply's lines to the FIFO
                                            REPLIES, then a line of 0x1e and the status (0, or 1 as above).
                                            Under software emulation starting python takes over a second; the
                                            scenarios send dozens of commands.
    wpas-ctl.py --monitor SOCKET LOG [ACCEPT]   ATTACH and append every event to LOG, one line each, with
                                            the seconds since the epoch in front; runs until killed. With
                                            ACCEPT (e.g. "ndi=ndiP handle=1"), every NAN-NDP-REQUEST is
                                            answered at once with NAN_NDP_RESPONSE accept and those
                                            parameters, as an application that accepts every data path would
                                            (the benchmark: no script start-up in the setup time)

The interop scenarios (tools/vm/scenarios/interop-*.sh, through tools/vm/guest/wpas.sh) use it to drive the
peer stack in ../shared/peers/wpa_supplicant-2.12.
"""
import os
import socket
import sys
import time


def connect(path):
    local = f"/tmp/wpas-ctl-{os.getpid()}-{time.monotonic_ns()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(local)
    try:
        sock.connect(path)
    except OSError:
        os.unlink(local)
        raise
    return sock, local


def command(path, words, timeout):
    sock, local = connect(path)
    try:
        sock.settimeout(timeout)
        sock.send(" ".join(words).encode())
        while True:
            reply = sock.recv(65536).decode(errors="replace")
            # Unsolicited events ("<3>NAN-...") may come first on an attached socket; this one is not.
            if not reply.startswith("<"):
                return reply
    finally:
        sock.close()
        os.unlink(local)


def field(event, key):
    for word in event.split():
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return ""


def monitor(path, log_path, accept=None):
    sock, local = connect(path)
    try:
        sock.settimeout(5)
        sock.send(b"ATTACH")
        if sock.recv(4096).strip() != b"OK":
            sys.exit(f"wpas-ctl: ATTACH to {path} refused")
        with open(log_path, "a", buffering=1) as log:
            log.write(f"{time.time():.3f} ATTACHED\n")
            sock.settimeout(None)
            while True:
                event = sock.recv(65536).decode(errors="replace").strip()
                # "<3>NAN-RECEIVE ..." -> "NAN-RECEIVE ..."
                if event.startswith("<") and ">" in event:
                    event = event.split(">", 1)[1]
                log.write(f"{time.time():.3f} {event}\n")
                if accept is not None and event.startswith("NAN-NDP-REQUEST "):
                    words = ["NAN_NDP_RESPONSE", "accept", "peer_nmi=" + field(event, "peer_nmi"),
                             "ndp_id=" + field(event, "ndp_id"), "init_ndi=" + field(event, "init_ndi"), accept]
                    try:
                        reply = command(path, words, 5).strip()
                    except (OSError, socket.timeout) as error:
                        reply = f"FAIL {error}"
                    log.write(f"{time.time():.3f} AUTO-ACCEPT {reply}\n")
    finally:
        sock.close()
        os.unlink(local)


def serve(requests_path, replies_path):
    with open(requests_path, errors="replace") as requests, open(replies_path, "w") as replies:
        for request in requests:
            parts = request.rstrip("\n").split("\x1f", 2)
            if len(parts) != 3:
                replies.write(f"wpas-ctl: malformed request {request!r}\n\x1e1\n")
                replies.flush()
                continue
            path, timeout, text = parts
            try:
                reply = command(path, [text], float(timeout)).rstrip("\n")
                status = 1 if reply.startswith("FAIL") or reply.startswith("UNKNOWN COMMAND") else 0
            except (OSError, socket.timeout, ValueError) as error:
                reply, status = f"wpas-ctl: {path}: {text}: {error}", 1
            replies.write(f"{reply}\n\x1e{status}\n")
            replies.flush()


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--serve":
        serve(args[1], args[2])
        return
    if len(args) in (3, 4) and args[0] == "--monitor":
        monitor(args[1], args[2], args[3] if len(args) == 4 else None)
        return
    if len(args) < 2:
        sys.exit(__doc__)
    try:
        reply = command(args[0], args[1:], float(os.environ.get("WPAS_CTL_TIMEOUT", "30")))
    except (OSError, socket.timeout) as error:
        sys.exit(f"wpas-ctl: {args[0]}: {' '.join(args[1:])}: {error}")
    print(reply.rstrip("\n"))
    if reply.startswith("FAIL") or reply.startswith("UNKNOWN COMMAND"):
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A byte-exact TCP exchange over an IPv6 link-local address, for the data-path scenarios.

  tcp-exchange.py server IFACE PORT SEND_BYTES SEED   accept one connection on [::]:PORT (scoped to IFACE)
  tcp-exchange.py client IFACE ADDR PORT SEND_BYTES SEED   connect to ADDR%IFACE:PORT (retrying for 30 s)
  tcp-exchange.py digest SEND_BYTES SEED...              print the sha256 the peer must see, one line a SEED

Each side sends SEND_BYTES of a deterministic stream (from SEED), half-closes, reads the peer's bytes to
the end and prints `received N sha256 HEX`; the scenario compares HEX with `digest` of the peer's stream.
"""
import hashlib, random, socket, sys, threading, time


def stream(size, seed):
    rng = random.Random(seed)
    left = size
    while left > 0:
        n = min(left, 65536)
        yield rng.randbytes(n)
        left -= n


def exchange(sock, size, seed):
    def sender():
        for chunk in stream(size, seed):
            sock.sendall(chunk)
        sock.shutdown(socket.SHUT_WR)
    thread = threading.Thread(target=sender)
    thread.start()
    digest, total = hashlib.sha256(), 0
    while True:
        data = sock.recv(65536)
        if not data:
            break
        digest.update(data)
        total += len(data)
    thread.join()
    print(f"received {total} sha256 {digest.hexdigest()}", flush=True)


def main():
    mode = sys.argv[1]
    if mode == "digest":
        for seed in sys.argv[3:]:
            digest = hashlib.sha256()
            for chunk in stream(int(sys.argv[2]), int(seed)):
                digest.update(chunk)
            print(digest.hexdigest())
    elif mode == "server":
        iface, port, size, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        server = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, iface.encode())
        server.bind(("::", port))
        server.listen(1)
        print("listening", flush=True)
        server.settimeout(120)
        conn, peer = server.accept()
        conn.settimeout(120)
        print(f"accepted {peer[0]}", flush=True)
        exchange(conn, size, seed)
    elif mode == "client":
        iface, addr, port, size, seed = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
        scope = socket.if_nametoindex(iface)
        deadline = time.time() + 30
        while True:
            sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            sock.settimeout(120)
            try:
                sock.connect((addr, port, 0, scope))
                break
            except OSError as error:
                sock.close()
                if time.time() > deadline:
                    print(f"connect failed: {error}", flush=True)
                    sys.exit(1)
                time.sleep(0.5)
        exchange(sock, size, seed)
    else:
        sys.exit(f"unknown mode {mode}")


main()

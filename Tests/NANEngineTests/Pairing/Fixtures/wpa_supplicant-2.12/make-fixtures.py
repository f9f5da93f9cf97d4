#!/usr/bin/env python3
"""Writes the pairing frames wpa_supplicant 2.12 would send, laid out from its source (hostap_2_12:
src/nan/nan_bootstrap.c nan_bootstrap_build_npba, src/common/nan_de.c nan_de_tx_sdf, src/nan/nan_pairing.c
nan_nik_build_key_data / nan_send_nik, src/nan/nan_crypto.c nan_crypto_encrypt_key_data), with the device
attributes copied from a frame wpa_supplicant really sent (shared/fixtures/wpa_supplicant-2.12/
open-ndp-sdf-followup-01.hex). AES key wrap by the openssl command line, not by waware. Run it here; it
rewrites the .hex files."""
import hashlib, subprocess

WAWARE = "02000000000b"          # waware's NMI in every frame (A1)
WPA = "420000000100"             # wpa_supplicant's NMI (A2), as in the shared fixtures
CLUSTER = "506f9a01ee40"
SERVICE = hashlib.sha256(b"_waware-pair._udp").hexdigest()[:12]

# Device Capability, NAN Availability, DCEA (pairing setup + NPK/NIK caching), NIRA: what
# wpas_nan_de_add_extra_attrs put in the captured follow-up, after its SDA and SDEA.

def attrs_from_capture():
    import os
    path = os.path.join(os.path.dirname(__file__), "device-attributes-from-capture.hex")
    return open(path).read().strip()

def header(category_protected=False):
    fc = "d040" if category_protected else "d000"
    return fc + "0000" + WAWARE + WPA + CLUSTER + "0000"

def sda(instance, requestor):
    return "030900" + SERVICE + f"{instance:02x}{requestor:02x}" + "02"

def npba(token, type_status, body):
    b = f"{token:02x}{type_status:02x}00" + body
    return "2c" + f"{len(b)//2:02x}00" + b

def followup(category, instance, requestor, attrs):
    return header() + category + "09506f9a13" + sda(instance, requestor) + attrs_from_capture() + attrs

def wrap(kek, plain):
    cipher = "id-aes128-wrap" if len(kek) == 32 else "id-aes256-wrap"
    out = subprocess.run(["openssl", "enc", "-" + cipher, "-K", kek, "-iv", "A6A6A6A6A6A6A6A6"],
                         input=bytes.fromhex(plain), capture_output=True, check=True).stdout
    return out.hex()

def nik_skda(handle, kek, nik, lifetime, key_len):
    kde = "dd15" + "506f9a24" + "00" + nik
    kde += "dd0a" + "506f9a25" + "0800" + f"{lifetime:08x}"
    n = len(kde) // 2
    if n % 8:
        kde += "dd" + "00" * (8 - n % 8 - 1)
    wrapped = wrap(kek, kde)
    desc = "02" + "1088" + f"{key_len:04x}" + "00" * (8 + 32 + 16 + 8 + 8) + f"{len(wrapped)//2:04x}" + wrapped
    body = f"{handle:02x}" + desc
    return "24" + (len(body)//2).to_bytes(2, "little").hex() + body

files = {
    # wpa (PIN keypad, subscribe handle 1) asks waware's publish 5: its own method, 0x0020.
    "bootstrap-request-pin-keypad.hex": followup("04", 1, 5, npba(0x2a, 0x01, "2000")),
    # The same request for opportunistic bootstrapping.
    "bootstrap-request-opportunistic.hex": followup("04", 1, 5, npba(0x2b, 0x01, "0100")),
    # wpa (PIN display, publish handle 1) tells waware's subscribe 3 to come back after 1024 TU, cookie c0ffee01.
    "bootstrap-response-comeback.hex": followup("04", 1, 3, npba(0x2a, 0x22, "0004" + "04" + "c0ffee01" + "0000")),
    # ... then accepts: its own method, PIN display 0x0002.
    "bootstrap-response-accepted-pin-display.hex": followup("04", 1, 3, npba(0x2a, 0x02, "0200")),
    # After PASN wpa sends its NIK in a protected SDF (category 9), here as it reaches user space once the
    # kernel decrypted it. KEK 101112..1f (NCS-PK-PASN-128) or 202122..3f (-256), NIK a0a1..af, 43200 s.
    "nik-followup-protected-ccmp.hex": followup("09", 1, 3, nik_skda(1, "101112131415161718191a1b1c1d1e1f",
                                                                     "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", 43200, 16)),
    "nik-followup-protected-gcmp256.hex": followup("09", 1, 3, nik_skda(1, "202122232425262728292a2b2c2d2e2f"
                                                                       "303132333435363738393a3b3c3d3e3f",
                                                                       "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", 43200, 32)),
}
for name, text in files.items():
    open(name, "w").write(text + "\n")

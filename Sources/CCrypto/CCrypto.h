// OpenSSL's libcrypto (libssl-dev). Every hash, MAC, KDF and cipher in waware goes through it, and only
// NANCrypto imports this module.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/err.h>
// SAE (NAN pairing): elliptic-curve points and big numbers, HKDF.
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/kdf.h>

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

// SHA-256 through libcrypto's SHA256_* functions rather than EVP. The first EVP digest initialises
// OpenSSL's providers (the default provider, its name map and method store: heap and code that stay
// resident), which a process whose only libcrypto use is deriving service IDs, an idle publisher, never
// needs otherwise. The functions are deprecated since OpenSSL 3.0 in favour of EVP, not removed; the
// wrapper keeps the warning out of the modules that import this one.
#include <openssl/sha.h>
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static inline int waware_sha256(const unsigned char *data, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    int ok = SHA256_Init(&context) && SHA256_Update(&context, data, count) && SHA256_Final(digest, &context);
    OPENSSL_cleanse(&context, sizeof context);
    return ok;
}
#pragma clang diagnostic pop

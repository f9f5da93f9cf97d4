// OpenSSL's libcrypto (libssl-dev). Every hash, MAC and cipher in waware goes through it.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/err.h>

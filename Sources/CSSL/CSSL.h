// OpenSSL's libssl (libssl-dev), for TLS over data paths. Only NANCrypto imports this module.
#include <openssl/ssl.h>
// The local TLS identity: X.509 certificates, PEM encoding, EC keys.
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/err.h>

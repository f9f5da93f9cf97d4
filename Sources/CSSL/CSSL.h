// OpenSSL's libssl (libssl-dev), for TLS over data paths. Only NANCrypto imports this module.
#include <openssl/ssl.h>

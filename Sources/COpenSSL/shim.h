// libcrypto through pkg-config libcrypto (libssl-dev). Only the EVP, PEM and error-queue APIs are used.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/rsa.h>
#include <openssl/crypto.h>

// OPENSSL_free is a macro; Swift cannot call it.
static inline void c_openssl_free(void *p) { OPENSSL_free(p); }

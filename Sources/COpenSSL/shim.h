// libcrypto through pkg-config libcrypto (libssl-dev). Only the EVP, HMAC, PEM and error-queue APIs are used;
// every call is made from Sources/DFUCore/Crypto/LibCrypto*.swift. This header only adds what Swift
// cannot call directly (the allocator macros), prefixed c_openssl_.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/rsa.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/hmac.h>

// OPENSSL_free is a macro; Swift cannot call it.
static inline void c_openssl_free(void *p) { OPENSSL_free(p); }

// OPENSSL_clear_free is a macro too: wipes buffers that may hold key material (PEM bodies) before freeing.
static inline void c_openssl_clear_free(void *p, size_t n) { OPENSSL_clear_free(p, n); }

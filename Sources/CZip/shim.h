// libzip through pkg-config libzip (libzip-dev); every call is made from Sources/DFUCore/Archive/LibZip.swift.
#include <zip.h>

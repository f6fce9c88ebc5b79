// libdbus through pkg-config dbus-1 (libdbus-1-dev).
#include <dbus/dbus.h>

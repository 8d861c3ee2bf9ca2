/* asm-syntax.h — asmdiff's stand-in (see sysdep.h): everything is in sysdep.h already. */
#include "sysdep.h"

/* linux/cfi_types.h — asmdiff's stand-in (see linux/linkage.h): SYM_TYPED_FUNC_START without
 * the kernel's CFI type hash, which only the kernel's indirect-call checks read. */
#ifndef ASMDIFF_OUTSIDE_LINUX_CFI_TYPES_H
#define ASMDIFF_OUTSIDE_LINUX_CFI_TYPES_H
#include <linux/linkage.h>
#endif

/* cipher-internal.h — stand-in for libgcrypt's cipher/cipher-internal.h, for ./asmdiff check of
 * cipher/cipher-gcm-riscv-zvkg.c (fuzz/polyval.c's "libgcrypt" convention).
 *
 * The kernels read one member of the cipher handle, c->u_mode.gcm.u_ghash_key.key (the 16-byte
 * GHASH key), so here the handle is that member alone: the check places those 16 bytes in a
 * guarded buffer and passes it as c.  libgcrypt's real handle has the member deep inside; its
 * offset is a compile-time matter the kernel's code does not depend on.
 *
 * clang 19 has the RVV intrinsics but does not declare the vector-crypto ones
 * (/work/shared/TOOLCHAIN.md): the one GHASH step the file uses is given here as the
 * instruction itself, enabled for that instruction only. */
#ifndef ASMDIFF_GCRYPT_RISCV_CIPHER_INTERNAL_H
#define ASMDIFF_GCRYPT_RISCV_CIPHER_INTERNAL_H
#include "g10lib.h"

struct gcry_cipher_handle {
    union {
        struct {
            union {
                byte key[16];
            } u_ghash_key;
        } gcm;
    } u_mode;
};
typedef struct gcry_cipher_handle *gcry_cipher_hd_t;

#define GCM_USE_RISCV_ZVKG 1

#if defined(__riscv_vector) && !defined(__riscv_zvkg)
#include <riscv_vector.h>
/* vd = (vd ^ vs1) * vs2 in GCM's field, per element group (Zvkg vghsh.vv vd, vs2, vs1) */
static inline __attribute__((always_inline)) vuint32m1_t
__riscv_vghsh_vv_u32m1(vuint32m1_t vd, vuint32m1_t vs2, vuint32m1_t vs1, size_t vl)
{
    __asm__(".option push\n\t.option arch, +zvkg\n\t"
            "vsetvli zero, %4, e32, m1, ta, ma\n\t"
            "vghsh.vv %0, %2, %3\n\t.option pop"
            : "=vr"(vd)
            : "0"(vd), "vr"(vs2), "vr"(vs1), "r"(vl)
            : "vl", "vtype");
    return vd;
}
#endif
#endif

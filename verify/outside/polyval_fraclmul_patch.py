#!/usr/bin/env python3
"""polyval_fraclmul_patch.py [--plant] IN OUT — the post-patch copy of libgcrypt's
cipher/cipher-gcm-riscv-zvkg.c for the libgcrypt-1.12 suite: the file as 1.12 ships it, with its
byte reversal (bswap128_u32m1: vrgather at e8, LMUL 1) replaced by one at the fractional LMUL
that makes the register group 128 bits for the VLEN read at run time (mf8 from vlenb 128, mf4
from 64, mf2 from 32, else m1), the change seed 004's author proposes (on real cores vrgather
costs time in proportion to the group, even at vl = 16).  The replacement is asmdiff's own
text, the same choice as kernels/polyval/polyval-riscv64-zvkg.S's fraclmul form; nothing else of
the file changes.  Neither copy is committed: the test makes OUT from the library's tree.
--plant: the same change with mf8 chosen one step too early (from vlenb 64, VLEN 512), where
the e8 register group holds only 8 bytes: half of every block reversed, a bug that lives at
VLEN 512 alone (the positive control of the riscv64 check: it must be caught there).
Exit 2 when IN has no such function (another version of the file)."""
import re
import sys

REPLACEMENT = r'''static ASM_FUNC_ATTR_INLINE vuint32m1_t
bswap128_u32m1(vuint32m1_t vec, size_t vl_u32)
{
  /* asmdiff's post-patch stand-in: the 16-byte reversal at the smallest LMUL whose register
   * group still holds 16 bytes at this VLEN */
  static const byte reverse16[16] =
    { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
  size_t nbytes = vl_u32 * 4;
  size_t vlenb = __riscv_vlenb();
  vuint8m1_t bytes = __riscv_vreinterpret_v_u32m1_u8m1(vec);

  if (vlenb >= 128)
    {
      vuint8mf8_t v = __riscv_vlmul_trunc_v_u8m1_u8mf8(bytes);
      vuint8mf8_t idx = __riscv_vle8_v_u8mf8(reverse16, nbytes);
      v = __riscv_vrgather_vv_u8mf8(v, idx, nbytes);
      return __riscv_vreinterpret_v_u8m1_u32m1(__riscv_vlmul_ext_v_u8mf8_u8m1(v));
    }
  if (vlenb >= 64)
    {
      vuint8mf4_t v = __riscv_vlmul_trunc_v_u8m1_u8mf4(bytes);
      vuint8mf4_t idx = __riscv_vle8_v_u8mf4(reverse16, nbytes);
      v = __riscv_vrgather_vv_u8mf4(v, idx, nbytes);
      return __riscv_vreinterpret_v_u8m1_u32m1(__riscv_vlmul_ext_v_u8mf4_u8m1(v));
    }
  if (vlenb >= 32)
    {
      vuint8mf2_t v = __riscv_vlmul_trunc_v_u8m1_u8mf2(bytes);
      vuint8mf2_t idx = __riscv_vle8_v_u8mf2(reverse16, nbytes);
      v = __riscv_vrgather_vv_u8mf2(v, idx, nbytes);
      return __riscv_vreinterpret_v_u8m1_u32m1(__riscv_vlmul_ext_v_u8mf2_u8m1(v));
    }
  return __riscv_vreinterpret_v_u8m1_u32m1(
           __riscv_vrgather_vv_u8m1(bytes, __riscv_vle8_v_u8m1(reverse16, nbytes), nbytes));
}
'''


def main():
    args = sys.argv[1:]
    plant = args[:1] == ["--plant"]
    if plant:
        args = args[1:]
    if len(args) != 2:
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    text = open(args[0]).read()
    pat = re.compile(r"static ASM_FUNC_ATTR_INLINE vuint32m1_t\nbswap128_u32m1\(.*?\n}\n", re.S)
    body = REPLACEMENT.replace("if (vlenb >= 128)", "if (vlenb >= 64) /* planted: one step too small */") \
        if plant else REPLACEMENT
    new, n = pat.subn(lambda m: body, text, count=1)
    if n != 1:
        print(f"{args[0]}: no bswap128_u32m1 of libgcrypt 1.12's form to replace",
              file=sys.stderr)
        return 2
    open(args[1], "w").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())

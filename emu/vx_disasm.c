/* vx_disasm.c — see vx_disasm.h. */
#include "emu/vx_disasm.h"

#include <stdio.h>
#include <string.h>

#ifndef VX_HAVE_LLVM
#define VX_HAVE_LLVM 0
#endif

#if VX_HAVE_LLVM
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

static LLVMDisasmContextRef dis;
#endif

static void hex(const uint8_t *b, size_t n, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "bytes");
    for (size_t i = 0; i < n && i < 15 && o + 4 < len; i++)
        o += (size_t)snprintf(buf + o, len - o, " %02x", b[i]);
}

static size_t llvm_text(const uint8_t *bytes, size_t n, uint64_t addr, char *buf, size_t len)
{
#if VX_HAVE_LLVM
    if (!dis) {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86Disassembler();
        dis = LLVMCreateDisasm("x86_64-linux-gnu", NULL, 0, NULL, NULL);
    }
    if (dis) {
        char tmp[160];
        size_t got = LLVMDisasmInstruction(dis, (uint8_t *)(uintptr_t)bytes, n, addr, tmp,
                                           sizeof tmp);
        if (got) {
            const char *p = tmp;
            while (*p == ' ' || *p == '\t') p++;
            snprintf(buf, len, "%s", p);
            for (char *q = buf; *q; q++)
                if (*q == '\t') *q = ' ';
            return got;
        }
    }
#endif
    (void)bytes; (void)n; (void)addr; (void)buf; (void)len;
    return 0;
}

int vx_disasm_available(void)
{
    return VX_HAVE_LLVM;
}

size_t vx_disasm_len(const uint8_t *bytes, size_t n, uint64_t addr, char *buf, size_t len)
{
    if (len) buf[0] = 0;
    return len ? llvm_text(bytes, n, addr, buf, len) : 0;
}

const char *vx_disasm(const uint8_t *bytes, size_t n, uint64_t addr, char *buf, size_t len)
{
    if (!len) return buf;
    buf[0] = 0;
    if (llvm_text(bytes, n, addr, buf, len)) return buf;
    hex(bytes, n, buf, len);
    return buf;
}

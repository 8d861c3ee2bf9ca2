/* emu_call_stub.c — emu_call.h when the build has no Unicorn Engine: nothing can be emulated,
 * and every call says why, so a caller reports a skip rather than a pass. */
#include "emu/emu_call.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int emu_available(void) { return 0; }

void emu_set_isa(int on, uint32_t declared)
{
    (void)on;
    (void)declared;
}

int emu_call(const void *fn, const uint64_t *argv, size_t argc, const struct abi_state *before,
             struct abi_state *after, uint64_t *rax, char *err, size_t errlen)
{
    (void)fn;
    (void)argv;
    (void)argc;
    *after = *before;
    if (rax) *rax = 0;
    snprintf(err, errlen, "no emulator in this build: Unicorn Engine (libunicorn-dev) was not "
             "found when it was configured");
    return -1;
}

void emu_stack(uint64_t *lo, size_t *size, uint64_t *entry_rsp)
{
    *lo = 0;
    *size = 0;
    *entry_rsp = 0;
}

int emu_needs_emulation(const void *fn)
{
    (void)fn;
    return 1;
}

void emu_describe_insn(uint64_t pc, char *text, size_t tlen, char *needs, size_t nlen)
{
    const uint8_t *b = (const uint8_t *)(uintptr_t)pc;
    long ps = sysconf(_SC_PAGESIZE);
    size_t room = ps > 0 ? (size_t)ps - (size_t)(pc % (uint64_t)ps) : 1;
    size_t o = tlen ? (size_t)snprintf(text, tlen, "bytes") : 0;
    for (size_t i = 0; i < 15 && i < room && o + 4 < tlen; i++)
        o += (size_t)snprintf(text + o, tlen - o, " %02x", b[i]);
    if (nlen) needs[0] = 0; /* no table of forms without the executor */
}

void emu_last_stats(uint64_t *vexec_insns, uint64_t *unicorn_turns)
{
    *vexec_insns = 0;
    *unicorn_turns = 0;
}

/* ucheck.h, the Unicorn modes' engine: every run fails, saying why. */
#include "emu/ucheck.h"
#include "emu/ucheck_elf.h"

int ucheck_run(const struct uc_call *call, struct uc_result *res)
{
    (void)call;
    memset(res, 0, sizeof *res);
    snprintf(res->error, sizeof res->error, "no Unicorn Engine in this build (libunicorn-dev was "
             "not found when it was configured)");
    return -1;
}

void ucheck_result_free(struct uc_result *res)
{
    (void)res;
}

long ucheck_trace_diff(const struct uc_call *call, const struct uc_result *a,
                       const struct uc_result *b, char *msg, size_t len)
{
    (void)call, (void)a, (void)b;
    if (len) msg[0] = 0;
    return -1;
}

uint64_t ucheck_event_pc(const struct uc_call *call, const struct uc_result *r, long i)
{
    (void)call, (void)r, (void)i;
    return 0;
}

uint64_t emu_last_pc(void)
{
    return 0;
}

int elfsym_load(void) { return -1; }

int elfsec_lookup(const char *name, uint64_t *addr, uint64_t *size)
{
    (void)name, (void)addr, (void)size;
    return -1;
}

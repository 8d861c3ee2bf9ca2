/* guard_words_selftest.c — the word-wise helpers of guard.c agree with libc and the canary
 * check misses no byte.
 *
 * Property: for every length 0..200 and every alignment 0..7, guard_fill writes exactly its n
 * bytes, guard_copy copies exactly them, guard_equal answers as memcmp for a difference at
 * every position (and for none); and for buffers placed both ways at every offset 0..70, a
 * single changed byte anywhere in either canary span makes gbuf_canary_intact say 0 and
 * gbuf_check_canary name that byte, while writes inside the buffer leave both silent.  A
 * planted check that ignores a span's last byte (the overlapping tail word) fails here: the
 * test can fail.  Ends with "N passed, M failed"; exit 0 only when all pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"

static unsigned long passed, failed;

static void check(int ok, const char *what, size_t a, size_t b, size_t c)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 10) fprintf(stderr, "FAIL %s (%zu, %zu, %zu)\n", what, a, b, c);
}

static void words(void)
{
    static uint8_t area[512], src[512], want[512];
    for (size_t align = 0; align < 8; align++)
        for (size_t n = 0; n <= 200; n++) {
            uint8_t *p = area + 64 + align;
            memset(area, 0x11, sizeof area);
            memcpy(want, area, sizeof area);
            memset(want + 64 + align, 0x5c, n);
            guard_fill(p, 0x5c, n);
            check(!memcmp(area, want, sizeof area), "guard_fill writes exactly n bytes", n,
                  align, 0);
            for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7 + n);
            memset(area, 0x11, sizeof area);
            memcpy(want, area, sizeof area);
            memcpy(want + 64 + align, src + align, n);
            guard_copy(p, src + align, n);
            check(!memcmp(area, want, sizeof area), "guard_copy copies exactly n bytes", n,
                  align, 0);
            check(guard_equal(p, src + align, n) == 1, "guard_equal: equal spans", n, align, 0);
            for (size_t i = 0; i < n; i++) {
                p[i] ^= 0x40;
                check(guard_equal(p, src + align, n) == 0, "guard_equal sees byte i", n, align, i);
                p[i] ^= 0x40;
            }
        }
}

static void canaries(void)
{
    struct gbuf b;
    memset(&b, 0, sizeof b);
    for (int place = 0; place < 2; place++)
        for (size_t off = 0; off <= 70; off++)
            for (size_t len = 0; len <= 40; len += 13) {
                gbuf_place(&b, len, place ? GUARD_HEAD : GUARD_TAIL, off);
                memset(b.p, 0x77, len); /* the buffer's own bytes are not canary */
                long where = 0;
                check(gbuf_canary_intact(&b) == 1 && gbuf_check_canary(&b, &where) == 0,
                      "intact after writes inside the buffer", (size_t)place, off, len);
                uint8_t *lo = b.p - GUARD_CANARY_SPAN < b.data ? b.data : b.p - GUARD_CANARY_SPAN;
                uint8_t *hi_end = b.p + len + GUARD_CANARY_SPAN;
                if (hi_end > b.data + b.cap) hi_end = b.data + b.cap;
                for (uint8_t *q = lo; q < hi_end; q++) {
                    if (q >= b.p && q < b.p + len) continue;
                    uint8_t keep = *q;
                    *q ^= 0x01;
                    check(gbuf_canary_intact(&b) == 0, "a changed canary byte is seen",
                          (size_t)place, off, (size_t)(q - lo));
                    check(gbuf_check_canary(&b, &where) == -1 && where == (long)(q - b.p),
                          "and located", (size_t)place, off, (size_t)(q - lo));
                    *q = keep;
                }
            }
    gbuf_free(&b);
}

int main(void)
{
    words();
    canaries();
    printf("guard words: %lu passed, %lu failed\n", passed, failed);
    return failed || !passed;
}

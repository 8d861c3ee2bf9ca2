/* nh_kat.c — NH (Adiantum): every implementation computes NH exactly, on every length.
 *
 * Properties checked, each on every implementation this host can run:
 *  1. published vectors: google/adiantum's pure-NH vectors give the published hashes;
 *  2. differential: every kernel equals reference/nh.c for every length 16..1024 step 16,
 *     with random keys and messages at random alignments and with adversarial words
 *     (0xffffffff everywhere for maximum carries, 0x80000000, sums that wrap to 0 ...);
 *  3. seed table: corpus/nh/vectors.txt (tools/gen_nh_vectors.c) regenerates its inputs and
 *     every implementation gives the stored digest;
 *  4. exact bounds: with key, message and hash each placed against an unmapped page (after
 *     their last byte, then before their first), no implementation faults: a kernel reads
 *     only message[0, len) and key[0, len + 48) and writes only hash[0, 32);
 *  5. documented edges (kernels/nh/nh.h): len 0 gives a zero hash and reads no message;
 *     the low 4 bits of len are ignored;
 *  6. vector registers: after a call, every xmm (SSE2) or ymm (AVX2) register is zero.
 * A kernel whose ISA the host lacks is listed as skipped, with the reason.
 *
 * Usage: nh_kat [--vectors FILE] [--seed N] [--bench]
 * Prints one line per group and finally "N passed, M failed".  Exit 0 when all pass,
 * 1 on any failure, 99 on a setup error (vectors file missing).
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Both the reference and the kernel interface are called nh.h: include each by its path, so
 * the order of -I flags cannot pick the wrong one. */
#include "../reference/nh.h"
#include "../kernels/nh/nh.h"

/* ---------------------------------------------------------------- implementations */

typedef void nh_fn(const uint32_t *key, const uint8_t *message, size_t message_len,
                   uint8_t hash[32]);

struct impl {
    const char *name;
    nh_fn *fn;
    int needs_avx2;
    int is_kernel; /* 0 for the reference */
};

static const struct impl impls[] = {
    {"c-reference", nh_ref, 0, 0},
    {"x86_64-sse2-addperm", nh_sse2_addperm, 0, 1},
    {"x86_64-sse2-permload", nh_sse2_permload, 0, 1},
    {"x86_64-avx2", nh_avx2, 1, 1},
};
#define N_IMPLS (sizeof(impls) / sizeof(impls[0]))

static int host_avx2;
static const char *avx2_missing = "host lacks avx2";

static int detect_avx2(void)
{
    unsigned a, b, c, d, lo, hi;
    const char *mask = getenv("ASMDIFF_CPU_MASK");

    if (mask && strstr(mask, "-avx2")) {
        avx2_missing = "masked by ASMDIFF_CPU_MASK: avx2";
        return 0;
    }
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX))
        return 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) /* OS saves xmm and ymm state */
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b & bit_AVX2) != 0;
}

static int runnable(const struct impl *im)
{
    return !im->needs_avx2 || host_avx2;
}

/* ---------------------------------------------------------------- counting and reporting */

static unsigned total_pass, total_fail, group_pass, group_fail, reports;

static void group_begin(void)
{
    group_pass = group_fail = 0;
}

static void group_end(const char *what)
{
    printf("%-58s %5u passed, %u failed\n", what, group_pass, group_fail);
    total_pass += group_pass;
    total_fail += group_fail;
}

static void hex(FILE *f, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", p[i]);
}

/* One assertion: got == want, else a report naming implementation and case. */
static void check_hash(const struct impl *im, const char *what, size_t len,
                       const uint8_t want[32], const uint8_t got[32])
{
    if (memcmp(want, got, 32) == 0) {
        group_pass++;
        return;
    }
    group_fail++;
    if (reports++ < 20) {
        fprintf(stderr, "MISMATCH %s, %s, len %zu\n  expected ", im->name, what, len);
        hex(stderr, want, 32);
        fprintf(stderr, "\n  actual   ");
        hex(stderr, got, 32);
        fprintf(stderr, "\n");
    }
}

__attribute__((format(printf, 2, 3)))
static void fail(const struct impl *im, const char *fmt, ...)
{
    va_list ap;

    group_fail++;
    if (reports++ < 20) {
        fprintf(stderr, "FAIL %s: ", im->name);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
    }
}

/* ---------------------------------------------------------------- random numbers */

/* xorshift64* (Vigna 2016).  Also the seed-table generator: keep in step with
 * tools/gen_nh_vectors.c, which documents it; group 3 fails if the two ever differ. */
static uint64_t xorshift64star(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(0x2545F4914F6CDD1D);
}

static uint64_t rng_state = UINT64_C(0x6e68206b61742031); /* --seed overrides */

static uint32_t rnd32(void)
{
    return (uint32_t)(xorshift64star(&rng_state) >> 32);
}

static void store_le32(uint8_t *p, uint32_t w)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(w >> (8 * i));
}

/* ---------------------------------------------------------------- 1. published vectors */

/* From google/adiantum, benchmark/testvectors/nh_testvecs.h (generated by its
 * python/nh.py from the Adiantum paper's definition; the same vectors the authors used for
 * their NH implementations).  Vectors 1 and 2 of that file (16-byte messages) and its last
 * vector (1024-byte message).  A 16-byte message reads only key bytes [0, 64), so only
 * those are stored for the first two; the rest of the key is left zero. */
struct published {
    const char *key_hex;
    const char *msg_hex;
    const char *hash_hex;
};

static const struct published published[] = {
    {
        "225b80c818053709" "76144b67c4507f2b" "2cff56c5d5664568" "35e6d29ae5d0c1fb"
        "ac59811a60b03d81" "4ba35ba9ccb3fe2d" "c24dd926ad36cf8c" "05113b8a991581c8",
        "d382e70435ccf7a4" "f9b2c5ed5ad958eb",
        "41d9ad545a0dcc53" "48f64c75435ddd77" "daca7dec913b5316" "5c4b58dc700a7b37",
    },
    {
        "8ff494d9ab84855c" "f7e0b49e91bb4573" "0888e3330d442d7a" "1cec01a62955df49"
        "f58698a1d54eaf42" "d4d473f6f62bad71" "d7ddb7d0099061f0" "366618dc21ab067c",
        "4013e1d667601466" "f5c0956a1cd1e6d8",
        "fe06ecd265254f40" "0c83487516f7281f" "d58a7c180cb6d45e" "8d8a4dad8ebdf44a",
    },
    {
        "ca9ade95da2188b1" "c64b8096ba82cd38" "7f8b740feac2b869" "c79e2fa812ab76d4"
        "409bb49453a255e2" "a3272c35d4784a0d" "917e5355822f7dd4" "19ef7326be7f001b"
        "c2f3068bb15bee92" "42c33f748dad38bf" "6af46538e3dfcdcc" "bbda3e67658b7d9d"
        "f7dde1a7ab822d00" "8ab030a1b839fc39" "38c46e38407d75c8" "4fcd5f78491ca9af"
        "e8d51fbae2cc21a4" "d1d09f1266ea8616" "76520adc772b8de7" "28ddefa9c5cb511d"
        "366d69485cf40ce4" "dc8a8be3e8c54c6e" "ee6e9609a133e559" "7cf564168ce4c3cf"
        "7fa63f6a869e4e9a" "b291b35a52645b39" "807a7027b25ed2ab" "24ca57ae249ddfb4"
        "57baef80abd252a9" "94fb4b9338a4f1e9" "56671cf2c52ca972" "3e84218c11079903"
        "22c291cc0317796e" "d9f21421d158f6d5" "3427592d938722e9" "9a44521aa348b2d7"
        "74848d3f98aa38b9" "1b72a8d77b8d7872" "2c520bd2a89a104a" "c903f508f66b753d"
        "f6ca039b402ab592" "360714cd436e99cd" "08473400e98076e1" "aebd7b24af8a7f33"
        "4b350b502e48a5b4" "730f5e007c5e1210" "3efd60dddf911b44" "fa1d8d552e0c672e"
        "fff2aa09b2891440" "4067d7e0c6d994d8" "8a8db65659010502" "c0add52647c3d742"
        "c27be8bfaf9d4fc7" "0e3881edbc04fbe4" "cd1f729a08dd8510" "b2ea0122c1a10da7"
        "eb29224c231201d5" "e320885e9a1ff4d6" "d4d42348c734ab2a" "3e188f89e160369e"
        "08ed5444123003b8" "5a980f289c7f5e9c" "aac4458ef2f662bc" "0a3f8f3cbf85ec1d"
        "5441eadff73b6f92" "32bb67b3aea2fe7a" "8e70e4816b3a4b6b" "5b5ad40ecede31e7"
        "b0b34e1db91bdb19" "118ab26a89a27243" "9fc6c137014e49a4" "1ddbba0df9d6e7b0"
        "0abfaef2e26b7c03" "ade63bc0daeb05ac" "37abe3950001e0df" "a008da08c18ec869"
        "86aa6548e8ad0ec0" "e1e767a499eeb8ed" "557402fb464d4fa9" "e5eb8ffbfb2b3eda"
        "b9aa6719352bc785" "fb33ef4b9d36c2e3" "f507125325ebc020" "57cfaa8ae4ec04a8"
        "ba6279c6b01d602a" "0a6e176695c7a41c" "cbd1ee14ead93015" "79d55056a3d1af5c"
        "8249cfecf3650ab9" "e7eeceda8bde0fdc" "1479537647ff3dec" "fc21117e3b12e363"
        "019a994e5994a9bf" "1b41b90a7dd3ed9b" "7415172f48769357" "6ed54901b864444a"
        "3db69110b7bc42cc" "e77eb01b16dae289" "f64ca58e1066a5a5" "29b82920c9ef9951"
        "15013a1c43a2485d" "8faa3ba2394bfae3" "f3732efcf890f7a2" "f52d6e26aa2b07b2"
        "92615ec61a79b81e" "7f0bdb5279cbf4eb" "a02602aad6cdaf90" "89c16ea2e51a87fe"
        "b0208def39f7ab6c" "07c74b19adc34390" "ef8fbdf636b7a580" "ccf89319e1ee090f"
        "796a61c6477baf95" "198adf6119814b0c" "43a14dddefe720c7" "5e8035033d816d9f"
        "15f402fc7de575b3" "d0cb27aeac68e243" "3268f4efe61d43d5" "756d2b808b228253"
        "9347917799774f57" "926277a83f2cdcc6" "9b6e628257f73b6e" "9262d0743eee6f63"
        "0f235c16f53b3c6f" "92cfb2db3c589b9a" "06a5b70e20f5229f" "38f96ab4e92b361c"
        "9b71f2c11a1a5aac" "de3034c95bd1ca0e" "35b1c11c519a33fd" "bc14b6a52cbb27f3"
        "639ed568d844bb26" "cb4fc1820436a93a",
        "155e56debef9ffa1" "c72b52485cbedbcf" "afb4821fe0060b11" "0d12d6c368c09042"
        "252f62b932ac6cfb" "82ba06a8170d5940" "7a0df2ffce449ec3" "861781e4757567a9"
        "02da0052abb0e762" "f7cc21f750ea3c36" "2cd12d9c0410e4ec" "25576bedba240abc"
        "fdc067f4c4456a33" "af20383794f5063c" "6ed246ebb25466e5" "ab0e500d13a600f1"
        "f3542abe0771dc33" "5ca66c8658cb755b" "f4657e92e1a86281" "7acfa2e565baaefd"
        "ae53f1e74cef37d5" "568390fcb038ae6a" "3051533d57148c66" "bcc2284d66f7970a"
        "585a1664ccf87e9e" "e74044c9a73e5f77" "3bbe4722361c3d33" "9af2e9238dc391c6"
        "4afd30098c5541c3" "80f573975b5cd040" "c796794d44e69df5" "0baa4ffaea3027ed"
        "00e8fd0e4f8993ba" "bb70d1040ef9ed13" "fe18a49fc6651d13" "d36a6eefedacd36f"
        "2b5a2048bf87b4b2" "150b43d403faea3c" "33a8e0f3f7790afc" "33eb03fa0db94070"
        "13a99a1bbbdac1f8" "9cb8525d0575006e" "21af41bd4a8c6676" "1223d9fb4a03e017"
        "153752726e5d0417" "2f6da525928da0e2" "727646acb8f0dbd8" "084f7cf33f40f292"
        "cbddb82f8b9758d1" "49a8b864a71beaca" "e6eede2df6d75e99" "0a73e086ad74eaad"
        "9c46f25e52075928" "a221a76f70e19933" "eb7aa653814bceba" "efb1c511aa26a8b3"
        "bc9219add7a4c444" "2fe8c1a2f560dd13" "e7df8f572f6eb0e1" "250ad59958109ea9"
        "5551e0f2e2e27453" "979a531c346e0797" "86d6284d862168b0" "78dbe2615e9c1063"
        "9eff56d7e68d4d3c" "24db2c5dab8fdf26" "700c9def559bdb56" "b60742415338543c"
        "cf9eacc310be5d32" "3efa5c8b6c29e243" "aca8969ba91b7212" "1316562c72e1cfab"
        "f505c113125afc8e" "4d371d4159ca6f86" "9b5c78042691e339" "067711722c881739"
        "cdf00abc4418632f" "e4066a7f0db3ff82" "dea977865c0e9fc5" "075194b1db9e9541"
        "9f6176f28367a5aa" "352a56ae5895f209" "300013753ea60021" "803d8d2b5328a676"
        "d987bb7a852e9b8a" "77c109b4e121e13f" "c9637df6d534817a" "3bf0376401b75cf5"
        "7072f9c089fe1094" "e4051efc21cc2d93" "13a71aeb0498898f" "93d4cf53e348cb6d"
        "d4d736885bea42e7" "01753035910527bd" "d6c3082c3332d939" "ad0724e4f546f15a"
        "4b486d8bc39c177c" "f91e13d4cfe5afe9" "fee034a2e2dfe76f" "1c3534b1a9594168"
        "235bf81b0cb6be76" "2d1fbc82f6b1ac37" "037ce975c2a5110f" "1ccd3713807d75fb"
        "53a1854141a82b7b" "e03a494ea0d67849" "d1ccd1f2415d3279" "fe63f86b1431f7ca"
        "019188577a3141b7" "f4ddeeb01e46bef3" "dd600aa5f5c04d97" "fb37311646d414e7"
        "15bf69aa613e2396" "09402cbc8f17a457" "f959fb19c8a35008" "fcddc8a8b5ba3932"
        "9c7333e4c8ffc276" "9c96072956694ca7" "e00a65d5e051661f" "9ffa242c5e2abfbc"
        "3f3a90f8424c6bac" "9a0dfc8274bdf90a" "0cb522e0abf2ae8a" "4310cf3e9b05450b"
        "65a1c041ca9637b2" "f72ca463fe80de0a" "cb4d4caabea3c4c0" "73a1209629bef19d",
        "c7c1c4566008cd1a" "bf86b76b6d7bf5a8" "be14644fe11cc242" "2a6fbbbeddbacf6a",
    },
};

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
    size_t n = 0;

    for (; s[0] && s[1] && n < max; s += 2) {
        unsigned v;
        if (sscanf(s, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void test_published(void)
{
    group_begin();
    for (size_t v = 0; v < sizeof(published) / sizeof(published[0]); v++) {
        uint8_t key_bytes[NH_KEY_BYTES] = {0}, msg[NH_MESSAGE_BYTES_MAX], want[32], got[32];
        uint32_t key[NH_KEY_WORDS];
        size_t len = unhex(published[v].msg_hex, msg, sizeof(msg));

        unhex(published[v].key_hex, key_bytes, sizeof(key_bytes));
        unhex(published[v].hash_hex, want, sizeof(want));
        nh_key_from_bytes(key, key_bytes);
        for (size_t i = 0; i < N_IMPLS; i++) {
            if (!runnable(&impls[i]))
                continue;
            memset(got, 0xa5, sizeof(got));
            impls[i].fn(key, msg, len, got);
            check_hash(&impls[i], "published vector (google/adiantum nh_testvecs.h)", len,
                       want, got);
        }
    }
    group_end("1. published NH vectors (google/adiantum nh_testvecs.h)");
}

/* ---------------------------------------------------------------- 2. differential */

#define RANDOM_WORDS UINT64_C(0x100000000) /* fill marker: not a 32-bit word */

struct fill {
    uint64_t key, msg;
    const char *name;
};

static const struct fill fills[] = {
    {RANDOM_WORDS, RANDOM_WORDS, "random key, random message"},
    {0xffffffff, 0xffffffff, "key and message 0xffffffff (max carries)"},
    {0x80000000, 0x80000000, "key and message 0x80000000 (sums wrap to 0)"},
    {0xffffffff, 0x00000001, "key 0xffffffff, message 1 (sums wrap to 0)"},
    {0x7fffffff, 0x80000000, "key 0x7fffffff, message 0x80000000"},
    {RANDOM_WORDS, 0xffffffff, "random key, message 0xffffffff"},
    {0xffffffff, RANDOM_WORDS, "key 0xffffffff, random message"},
    {0x80000000, RANDOM_WORDS, "key 0x80000000, random message"},
};

static void fill_words(uint8_t *p, size_t bytes, uint64_t fill)
{
    for (size_t i = 0; i < bytes; i += 4)
        store_le32(p + i, fill == RANDOM_WORDS ? rnd32() : (uint32_t)fill);
}

static void test_differential(void)
{
    /* Backing storage with room for misalignment; key offsets stay whole words so that the
     * C reference reads aligned uint32_t. */
    static uint32_t key_store[NH_KEY_WORDS + 4];
    static uint8_t msg_store[NH_MESSAGE_BYTES_MAX + 16], hash_store[32 + 8];
    char what[160];

    group_begin();
    for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES_MAX; len += NH_MESSAGE_UNIT) {
        for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++) {
            int trials = f == 0 ? 4 : 1;
            for (int t = 0; t < trials; t++) {
                size_t koff = t == 0 ? 0 : rnd32() % 4, moff = t == 0 ? 0 : rnd32() % 16;
                size_t hoff = t == 0 ? 0 : rnd32() % 8;
                uint32_t *key = key_store + koff;
                uint8_t *msg = msg_store + moff, *hash = hash_store + hoff, want[32];

                fill_words((uint8_t *)key, NH_KEY_BYTES, fills[f].key);
                fill_words(msg, len, fills[f].msg);
                nh_ref(key, msg, len, want);
                snprintf(what, sizeof(what), "%s, offsets key +%zu words, message +%zu, hash +%zu",
                         fills[f].name, koff, moff, hoff);
                for (size_t i = 0; i < N_IMPLS; i++) {
                    if (!impls[i].is_kernel || !runnable(&impls[i]))
                        continue;
                    memset(hash, 0xa5, 32);
                    impls[i].fn(key, msg, len, hash);
                    check_hash(&impls[i], what, len, want, hash);
                }
            }
        }
    }
    group_end("2. kernels == reference, len 16..1024, random and edge words");
}

/* ---------------------------------------------------------------- 3. seed table */

static void seed_generate(uint64_t seed, size_t len, uint32_t key[NH_KEY_WORDS], uint8_t *msg)
{
    uint64_t x = seed;

    for (size_t i = 0; i < NH_KEY_WORDS; i++)
        key[i] = (uint32_t)(xorshift64star(&x) >> 32);
    for (size_t i = 0; i < len / 4; i++)
        store_le32(msg + 4 * i, (uint32_t)(xorshift64star(&x) >> 32));
}

static int test_seed_table(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    unsigned seen = 0;
    uint8_t covered[NH_MESSAGE_BYTES_MAX / NH_MESSAGE_UNIT + 1] = {0};

    if (!f) {
        perror(path);
        return -1;
    }
    group_begin();
    while (fgets(line, sizeof(line), f)) {
        unsigned long long seed;
        size_t len;
        char digest_hex[80];
        uint32_t key[NH_KEY_WORDS];
        uint8_t msg[NH_MESSAGE_BYTES_MAX], want[32], got[32];

        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%llu %zu %79s", &seed, &len, digest_hex) != 3 || len == 0 ||
            len % NH_MESSAGE_UNIT || len > NH_MESSAGE_BYTES_MAX || strlen(digest_hex) != 64 ||
            unhex(digest_hex, want, 32) != 32) {
            fprintf(stderr, "%s: malformed line: %s", path, line);
            group_fail++;
            continue;
        }
        seen++;
        covered[len / NH_MESSAGE_UNIT] = 1;
        seed_generate(seed, len, key, msg);
        for (size_t i = 0; i < N_IMPLS; i++) {
            if (!runnable(&impls[i]))
                continue;
            memset(got, 0xa5, sizeof(got));
            impls[i].fn(key, msg, len, got);
            check_hash(&impls[i], "seed table", len, want, got);
        }
    }
    fclose(f);
    /* The table must cover every length, or it proves less than it claims. */
    for (size_t u = 1; u <= NH_MESSAGE_BYTES_MAX / NH_MESSAGE_UNIT; u++) {
        if (!covered[u]) {
            fprintf(stderr, "%s: no vector for length %zu\n", path, u * NH_MESSAGE_UNIT);
            group_fail++;
        }
    }
    char what[300];
    snprintf(what, sizeof(what), "3. seed table %s (%u vectors)", path, seen);
    group_end(what);
    return 0;
}

/* ---------------------------------------------------------------- 4./5. guard pages */

static long page_size;
static sigjmp_buf fault_jmp;
static volatile sig_atomic_t in_guarded_call;
static void *volatile fault_addr;

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (!in_guarded_call) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    fault_addr = si->si_addr;
    siglongjmp(fault_jmp, 1);
}

/* One readable-writable page between two unmapped ones. */
struct guarded {
    uint8_t *page;
};

static int guarded_alloc(struct guarded *g)
{
    uint8_t *p = mmap(NULL, 3 * page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED)
        return -1;
    if (mprotect(p + page_size, page_size, PROT_READ | PROT_WRITE) != 0)
        return -1;
    g->page = p + page_size;
    return 0;
}

/* Where a buffer of `bytes` starts: ending at the following unmapped page (tail) or starting
 * right after the preceding one (head). */
static uint8_t *place(struct guarded *g, size_t bytes, int tail)
{
    return tail ? g->page + page_size - bytes : g->page;
}

/* Call im->fn with key bytes [0, key_bytes), message [0, msg_bytes) and hash [0, 32) each
 * against a guard page; returns 0, or 1 after a fault (reported). */
static int guarded_call(const struct impl *im, struct guarded *gk, struct guarded *gm,
                        struct guarded *gh, const uint8_t *key_src, size_t key_bytes,
                        const uint8_t *msg_src, size_t msg_bytes, size_t len, int tail,
                        uint8_t out[32])
{
    uint8_t *key = place(gk, key_bytes, tail), *msg = place(gm, msg_bytes, tail);
    uint8_t *hash = place(gh, 32, tail);

    memcpy(key, key_src, key_bytes);
    if (msg_bytes)
        memcpy(msg, msg_src, msg_bytes);
    memset(hash, 0xa5, 32);
    if (sigsetjmp(fault_jmp, 1)) {
        in_guarded_call = 0;
        fail(im, "fault outside the declared buffers, len %zu (%s)", len,
             tail ? "buffers end at a guard page" : "buffers start at a guard page");
        fprintf(stderr, "  fault address %p; key %p+%zu, message %p+%zu, hash %p+32\n",
                fault_addr, (void *)key, key_bytes, (void *)msg, msg_bytes, (void *)hash);
        return 1;
    }
    in_guarded_call = 1;
    /* key is 4-byte aligned in both placements: page_size and key_bytes are multiples of 4. */
    im->fn((const uint32_t *)(void *)key, msg, len, hash);
    in_guarded_call = 0;
    memcpy(out, hash, 32);
    return 0;
}

static struct guarded g_key, g_msg, g_hash;

static void test_bounds(void)
{
    static uint8_t key_bytes[NH_KEY_BYTES], msg[NH_MESSAGE_BYTES_MAX];
    uint32_t key[NH_KEY_WORDS];

    fill_words(key_bytes, sizeof(key_bytes), RANDOM_WORDS);
    fill_words(msg, sizeof(msg), RANDOM_WORDS);
    nh_key_from_bytes(key, key_bytes);
    group_begin();
    for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES_MAX; len += NH_MESSAGE_UNIT) {
        uint8_t want[32], got[32];

        nh_ref(key, msg, len, want);
        for (int tail = 1; tail >= 0; tail--) {
            for (size_t i = 0; i < N_IMPLS; i++) {
                if (!runnable(&impls[i]))
                    continue;
                if (guarded_call(&impls[i], &g_key, &g_msg, &g_hash, key_bytes, len + 48, msg,
                                 len, len, tail, got) == 0)
                    check_hash(&impls[i], tail ? "guard pages after buffers"
                                               : "guard pages before buffers", len, want, got);
            }
        }
    }
    group_end("4. exact bounds: key[0,len+48), message[0,len), hash[0,32)");
}

static void test_edges(void)
{
    static uint8_t key_bytes[NH_KEY_BYTES], msg[NH_MESSAGE_BYTES_MAX];
    uint32_t key[NH_KEY_WORDS];
    static const size_t low_bits[] = {1, 8, 15};

    fill_words(key_bytes, sizeof(key_bytes), RANDOM_WORDS);
    fill_words(msg, sizeof(msg), RANDOM_WORDS);
    nh_key_from_bytes(key, key_bytes);
    group_begin();
    for (size_t n = 0; n <= NH_MESSAGE_BYTES_MAX; n += NH_MESSAGE_UNIT) {
        uint8_t want[32] = {0}, got[32];

        if (n)
            nh_ref(key, msg, n, want);
        for (size_t r = 0; r <= sizeof(low_bits) / sizeof(low_bits[0]); r++) {
            size_t len = n + (r ? low_bits[r - 1] : 0);
            if (len == n && n != 0)
                continue; /* in the domain: groups 2 and 4 */
            for (size_t i = 0; i < N_IMPLS; i++) {
                if (!impls[i].is_kernel || !runnable(&impls[i]))
                    continue;
                /* Only n message bytes and n + 48 key bytes are readable. */
                if (guarded_call(&impls[i], &g_key, &g_msg, &g_hash, key_bytes, n + 48, msg, n,
                                 len, 1, got) == 0)
                    check_hash(&impls[i], n ? "len with low bits set == NH of len & ~15"
                                            : "len < 16 gives a zero hash", len, want, got);
            }
        }
    }
    group_end("5. edges: len < 16 -> zero hash; low 4 bits of len ignored");
}

/* ---------------------------------------------------------------- 6. vector registers */

/* void call_dump_{xmm,ymm}(nh_fn *fn, const uint32_t *key, const uint8_t *msg, size_t len,
 *                          uint8_t *hash, uint8_t dump[16 * 32]);
 * Fill every vector register with ones, call fn, store xmm0-15 (16 bytes each at 32-byte
 * stride) or ymm0-15 to dump.  rbx keeps dump across the call; the push aligns the stack. */
__asm__(".text\n"
        ".p2align 4\n"
        ".type call_dump_xmm, @function\n"
        "call_dump_xmm:\n"
        "  push %rbx\n"
        "  mov %r9, %rbx\n"
        "  mov %rdi, %rax\n"
        "  mov %rsi, %rdi\n"
        "  mov %rdx, %rsi\n"
        "  mov %rcx, %rdx\n"
        "  mov %r8, %rcx\n"
        "  .irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
        "  pcmpeqd %xmm\\r, %xmm\\r\n"
        "  .endr\n"
        "  call *%rax\n"
        "  .irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
        "  movdqu %xmm\\r, (\\r*32)(%rbx)\n"
        "  .endr\n"
        "  pop %rbx\n"
        "  ret\n"
        ".size call_dump_xmm, . - call_dump_xmm\n"
        ".p2align 4\n"
        ".type call_dump_ymm, @function\n"
        "call_dump_ymm:\n"
        "  push %rbx\n"
        "  mov %r9, %rbx\n"
        "  mov %rdi, %rax\n"
        "  mov %rsi, %rdi\n"
        "  mov %rdx, %rsi\n"
        "  mov %rcx, %rdx\n"
        "  mov %r8, %rcx\n"
        "  .irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
        "  vpcmpeqd %ymm\\r, %ymm\\r, %ymm\\r\n"
        "  .endr\n"
        "  call *%rax\n"
        "  .irp r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
        "  vmovdqu %ymm\\r, (\\r*32)(%rbx)\n"
        "  .endr\n"
        "  vzeroupper\n"
        "  pop %rbx\n"
        "  ret\n"
        ".size call_dump_ymm, . - call_dump_ymm\n");

void call_dump_xmm(nh_fn *fn, const uint32_t *key, const uint8_t *msg, size_t len,
                   uint8_t *hash, uint8_t dump[16 * 32]);
void call_dump_ymm(nh_fn *fn, const uint32_t *key, const uint8_t *msg, size_t len,
                   uint8_t *hash, uint8_t dump[16 * 32]);

static void test_registers_cleared(void)
{
    static const size_t lens[] = {16, 32, 48, 64, 80, 112, 128, 1008, 1024};
    static uint32_t key[NH_KEY_WORDS];
    static uint8_t msg[NH_MESSAGE_BYTES_MAX];

    fill_words((uint8_t *)key, NH_KEY_BYTES, RANDOM_WORDS);
    fill_words(msg, sizeof(msg), RANDOM_WORDS);
    group_begin();
    for (size_t i = 0; i < N_IMPLS; i++) {
        if (!impls[i].is_kernel || !runnable(&impls[i]))
            continue;
        for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            uint8_t dump[16 * 32], hash[32], want[32];
            size_t width = impls[i].needs_avx2 ? 32 : 16, bad = 16;

            memset(dump, 0, sizeof(dump));
            if (impls[i].needs_avx2)
                call_dump_ymm(impls[i].fn, key, msg, lens[l], hash, dump);
            else
                call_dump_xmm(impls[i].fn, key, msg, lens[l], hash, dump);
            for (size_t r = 0; r < 16 && bad == 16; r++)
                for (size_t b = 0; b < width; b++)
                    if (dump[32 * r + b])
                        bad = r;
            nh_ref(key, msg, lens[l], want);
            if (memcmp(hash, want, 32) != 0)
                fail(&impls[i], "wrong hash through the register-dump call, len %zu", lens[l]);
            else if (bad != 16)
                fail(&impls[i], "vector register %zu not cleared on return, len %zu", bad,
                     lens[l]);
            else
                group_pass++;
        }
    }
    group_end("6. every xmm (SSE2) / ymm (AVX2) register zero on return");
}

/* ---------------------------------------------------------------- bench */

static uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Core clock estimate: a chain of dependent one-cycle adds, 100 per loop iteration. */
static double core_mhz(void)
{
    double best = 0;

    for (int rep = 0; rep < 5; rep++) {
        uint64_t iters = 200000, x = 0;
        double t0 = now_ns();
        __asm__ volatile("1:\n"
                         ".rept 100\n"
                         "add $1, %0\n"
                         ".endr\n"
                         "dec %1\n"
                         "jnz 1b\n"
                         : "+r"(x), "+r"(iters));
        double mhz = 200000.0 * 100 / (now_ns() - t0) * 1e3;
        if (mhz > best)
            best = mhz;
    }
    return best;
}

static void bench(void)
{
    static uint32_t key[NH_KEY_WORDS];
    static uint8_t msg[NH_MESSAGE_BYTES_MAX];
    uint8_t hash[32];
    const size_t len = NH_MESSAGE_BYTES_MAX, calls = 20000;
    uint64_t t0 = rdtsc();
    double n0 = now_ns();

    usleep(100000);
    double tsc_mhz = (rdtsc() - t0) / (now_ns() - n0) * 1e3, mhz = core_mhz();

    fill_words((uint8_t *)key, NH_KEY_BYTES, RANDOM_WORDS);
    fill_words(msg, sizeof(msg), RANDOM_WORDS);
    printf("\nbench: %zu-byte messages, best of 9 runs of %zu calls; TSC %.0f MHz (constant "
           "rate), core about %.0f MHz (dependent-add loop)\n", len, calls, tsc_mhz, mhz);
    printf("%-22s %10s %10s %12s %10s\n", "implementation", "TSC c/B", "ns/B", "core c/B",
           "MiB/s");
    for (size_t i = 0; i < N_IMPLS; i++) {
        double best_ns = 1e30, best_tsc = 1e30;

        if (!runnable(&impls[i])) {
            printf("%-22s skipped: %s\n", impls[i].name, avx2_missing);
            continue;
        }
        for (int rep = 0; rep < 9; rep++) {
            double s = now_ns();
            uint64_t c = rdtsc();
            for (size_t k = 0; k < calls; k++) {
                impls[i].fn(key, msg, len, hash);
                __asm__ volatile("" : : "r"(hash) : "memory");
            }
            uint64_t dc = rdtsc() - c;
            double dn = now_ns() - s;
            if (dn < best_ns)
                best_ns = dn;
            if ((double)dc < best_tsc)
                best_tsc = (double)dc;
        }
        double nspb = best_ns / (double)(calls * len);
        printf("%-22s %10.3f %10.4f %12.3f %10.0f\n", impls[i].name,
               best_tsc / (double)(calls * len), nspb, nspb * mhz / 1e3,
               1e9 / nspb / (1024.0 * 1024.0));
    }
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    const char *vectors = "corpus/nh/vectors.txt";
    int do_bench = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bench"))
            do_bench = 1;
        else if (!strcmp(argv[i], "--vectors") && i + 1 < argc)
            vectors = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 0) | 1;
        else {
            fprintf(stderr, "usage: %s [--vectors FILE] [--seed N] [--bench]\n", argv[0]);
            return 99;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    page_size = sysconf(_SC_PAGESIZE);
    host_avx2 = detect_avx2();

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL) ||
        guarded_alloc(&g_key) || guarded_alloc(&g_msg) || guarded_alloc(&g_hash)) {
        perror("nh_kat: setup");
        return 99;
    }

    printf("nh_kat: random seed 0x%016" PRIx64 "\n", rng_state);
    for (size_t i = 0; i < N_IMPLS; i++)
        printf("  %-22s %s\n", impls[i].name, runnable(&impls[i]) ? "runs" : avx2_missing);

    test_published();
    test_differential();
    if (test_seed_table(vectors) != 0)
        return 99;
    test_bounds();
    test_edges();
    test_registers_cleared();

    printf("%u passed, %u failed\n", total_pass, total_fail);
    if (do_bench)
        bench();
    return total_fail ? 1 : 0;
}

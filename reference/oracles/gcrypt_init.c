/* gcrypt_init.c — see gcrypt_init.h. */
#include "gcrypt_init.h"

#include <gcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char disabled[512], hwf[1024];

void oracle_gcrypt_init(void)
{
    static int done;
    if (done) return;
    done = 1;
    const char *env = getenv("ASMDIFF_GCRYPT_DISABLE");
    if (env && *env) {
        snprintf(disabled, sizeof disabled, "%s", env);
        char list[512];
        snprintf(list, sizeof list, "%s", env);
        for (char *save, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
            if (gcry_control(GCRYCTL_DISABLE_HWF, name, NULL)) {
                fprintf(stderr, "asmdiff: ASMDIFF_GCRYPT_DISABLE: libgcrypt does not know "
                                "hardware feature '%s'\n", name);
                exit(2);
            }
    }
    if (!gcry_check_version(NULL)) {
        fprintf(stderr, "asmdiff: libgcrypt failed to initialise\n");
        exit(99);
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

    /* The hwflist line of GCRYCTL_PRINT_CONFIG: "hwflist:intel-cpu:intel-bmi2:...:" */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        gcry_control(GCRYCTL_PRINT_CONFIG, f);
        fclose(f);
        char *line = buf ? strstr(buf, "hwflist:") : NULL;
        size_t used = 0;
        if (line) {
            line += strlen("hwflist:");
            for (char *p = line; *p && *p != '\n'; p++) {
                char c = *p == ':' ? ' ' : *p;
                if (used + 1 < sizeof hwf) hwf[used++] = c;
            }
        }
        while (used && hwf[used - 1] == ' ') used--;
        hwf[used] = 0;
        free(buf);
    }
}

const char *oracle_gcrypt_hwf(void)
{
    oracle_gcrypt_init();
    return hwf;
}

const char *oracle_gcrypt_disabled(void)
{
    return disabled;
}

const char *oracle_gcrypt_describe(void)
{
    static char buf[1600];
    oracle_gcrypt_init();
    snprintf(buf, sizeof buf, "libgcrypt %s (hwf: %s%s%s)", gcry_check_version(NULL),
             *hwf ? hwf : "none", *disabled ? "; disabled: " : "", disabled);
    return buf;
}

const char *oracle_gcrypt_version(void)
{
    static char buf[64];
    oracle_gcrypt_init();
    snprintf(buf, sizeof buf, "libgcrypt %s", gcry_check_version(NULL));
    return buf;
}

const char *oracle_gcrypt_label(void)
{
    static char buf[600];
    if (!*buf) {
        const char *env = getenv("ASMDIFF_GCRYPT_DISABLE");
        snprintf(buf, sizeof buf, "libgcrypt-%s%s", env && *env ? "no-" : "full",
                 env && *env ? env : "");
    }
    return buf;
}

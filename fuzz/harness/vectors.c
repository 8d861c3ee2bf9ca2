/* vectors.c — see vectors.h. */
#include "vectors.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int vec_open(struct vec_file *vf, const char *srcdir, const char *relpath)
{
    static char path[4096];
    memset(vf, 0, sizeof *vf);
    snprintf(path, sizeof path, "%s/%s", srcdir, relpath);
    vf->path = path;
    vf->f = fopen(path, "r");
    if (!vf->f) {
        fprintf(stderr, "asmdiff: cannot open vector file %s\n", path);
        return -1;
    }
    return 0;
}

static void clear_block(struct vec_block *b)
{
    for (int i = 0; i < b->nattrs; i++) free(b->name[i]), free(b->value[i]);
    memset(b, 0, sizeof *b);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

int vec_next(struct vec_file *vf)
{
    char line[16384];
    clear_block(&vf->b);
    while (fgets(line, sizeof line, vf->f)) {
        vf->line++;
        char *s = trim(line);
        if (*s == '#' || *s == '[') continue; /* comments; [section] headers group blocks */
        if (!*s) {
            if (vf->b.nattrs) return 1;
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq || vf->b.nattrs == VEC_MAX_ATTRS) {
            fprintf(stderr, "%s:%d: malformed line (want 'Name = Value')\n", vf->path, vf->line);
            vf->errors++;
            continue;
        }
        *eq = 0;
        if (!vf->b.nattrs) vf->b.line = vf->line;
        vf->b.name[vf->b.nattrs] = strdup(trim(s));
        vf->b.value[vf->b.nattrs] = strdup(trim(eq + 1));
        vf->b.nattrs++;
    }
    return vf->b.nattrs > 0;
}

const char *vec_get_opt(struct vec_file *vf, const char *name)
{
    for (int i = 0; i < vf->b.nattrs; i++)
        if (!strcmp(vf->b.name[i], name)) {
            vf->b.used[i] = 1;
            return vf->b.value[i];
        }
    return NULL;
}

const char *vec_get(struct vec_file *vf, const char *name)
{
    const char *v = vec_get_opt(vf, name);
    if (!v) {
        fprintf(stderr, "%s:%d: block lacks attribute '%s'\n", vf->path, vf->b.line, name);
        vf->errors++;
    }
    return v;
}

long vec_get_hex(struct vec_file *vf, const char *name, uint8_t *out, size_t cap)
{
    const char *v = vec_get(vf, name);
    if (!v) return -1;
    size_t len = strlen(v);
    if (len % 2 || len / 2 > cap) goto bad;
    for (size_t i = 0; i < len / 2; i++) {
        unsigned byte;
        if (!isxdigit((unsigned char)v[2 * i]) || !isxdigit((unsigned char)v[2 * i + 1]) ||
            sscanf(v + 2 * i, "%2x", &byte) != 1)
            goto bad;
        out[i] = (uint8_t)byte;
    }
    return (long)(len / 2);
bad:
    fprintf(stderr, "%s:%d: attribute '%s' is not hex of at most %zu bytes\n", vf->path,
            vf->b.line, name, cap);
    vf->errors++;
    return -1;
}

long long vec_get_uint(struct vec_file *vf, const char *name)
{
    const char *v = vec_get(vf, name);
    if (!v) return -1;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*v == '-' || end == v || *end) {
        fprintf(stderr, "%s:%d: attribute '%s' is not a number\n", vf->path, vf->b.line, name);
        vf->errors++;
        return -1;
    }
    return x;
}

void vec_done(struct vec_file *vf)
{
    for (int i = 0; i < vf->b.nattrs; i++)
        if (!vf->b.used[i]) {
            fprintf(stderr, "%s:%d: attribute '%s' is not checked by the test\n", vf->path,
                    vf->b.line, vf->b.name[i]);
            vf->errors++;
        }
}

int vec_close(struct vec_file *vf)
{
    clear_block(&vf->b);
    if (vf->f) fclose(vf->f);
    vf->f = NULL;
    return vf->errors;
}

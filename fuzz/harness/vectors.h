/* vectors.h — known-answer vector files, as BoringSSL's file_test: blocks of `Name = Value`
 * lines separated by blank lines; `#` starts a comment; the file's first comment names the
 * source.  Every attribute of a block must be consumed by the test (vec_done reports the ones
 * nothing read), so a vector file can never carry a field that nothing checks. */
#ifndef ASMDIFF_VECTORS_H
#define ASMDIFF_VECTORS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VEC_MAX_ATTRS 16

struct vec_block {
    int line; /* first line of the block */
    int nattrs;
    char *name[VEC_MAX_ATTRS];
    char *value[VEC_MAX_ATTRS];
    int used[VEC_MAX_ATTRS];
};

struct vec_file {
    FILE *f;
    const char *path;
    int line;
    int errors;
    struct vec_block b;
};

/* Open srcdir/relpath; returns -1 with a message when it cannot. */
int vec_open(struct vec_file *vf, const char *srcdir, const char *relpath);
/* Next block: 1, end of file: 0. */
int vec_next(struct vec_file *vf);
/* Value of attribute name in the current block (marked consumed), or NULL (an error is counted
 * and printed, naming file and line). */
const char *vec_get(struct vec_file *vf, const char *name);
/* Optional attribute: NULL without an error when absent. */
const char *vec_get_opt(struct vec_file *vf, const char *name);
/* Hex value of attribute into out (at most cap bytes); returns its length, or -1. */
long vec_get_hex(struct vec_file *vf, const char *name, uint8_t *out, size_t cap);
/* Unsigned decimal value of attribute, or -1. */
long long vec_get_uint(struct vec_file *vf, const char *name);
/* Report attributes of the current block nothing consumed (counted as errors). */
void vec_done(struct vec_file *vf);
/* Close; returns the number of errors (missing, unconsumed or malformed attributes). */
int vec_close(struct vec_file *vf);

#endif

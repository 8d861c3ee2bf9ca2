/* vx_inventory.c — which VEX/EVEX instruction forms a set of objects uses, and whether the
 * vector executor (vexec.c) runs each: `./asmdiff inventory` (tools/asmdiff/inventory.py).
 *
 *   vx_inventory [--csv] [--unsupported] [--require-all] [--min-objects N] FILE...
 *
 * FILE: an ELF x86-64 relocatable object, shared object or executable, or an ar archive (every
 * member).  The code of each executable section is walked with LLVM's disassembler: the
 * ranges of its function symbols (STT_FUNC, or untyped with a size; a function without a
 * size runs to the next one): tables of constants that hand-written assembly keeps in .text
 * lie outside them and are not read as code; the whole section when it has none, or when the
 * file has no .symtab (a stripped library: its .dynsym names only exported functions).  A form is the mnemonic, the encoding (VEX/EVEX), the vector length (the
 * L bits) and the operands' shape as LLVM prints them, each register by its class (xmm, ymm,
 * zmm, k, r64, r32), memory as m, an embedded broadcast as m{1toN}, masking as {k} and {z}.
 * The executor supports an instruction when vx_decode finds a row of its table that takes
 * exactly that encoding (same length as LLVM's); a form is supported when every instruction
 * of it is.
 *
 * Exit: 0; 1 with --require-all when a form is unsupported, or with --min-objects N when
 * fewer than N objects have VEX/EVEX code; 2 bad input (missing file, not ELF x86-64, a
 * corrupt archive); 77 when the build has no LLVM disassembler.
 */
#include "emu/vexec.h"
#include "emu/vx_disasm.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct form {
    char key[160];       /* mnemonic, encoding, length, shape: one line of the listing */
    char mnemonic[32], enc[8], shape[112];
    unsigned vl;
    unsigned long insns, supported;
    char example[200];   /* the first instruction of the form that the executor lacks */
};

struct forms {
    struct form *v;
    size_t n, cap;
};

static struct forms total;
static int opt_csv, opt_unsupported;
static unsigned long n_objects, n_vector_objects, n_insns_total, n_supported_total;
static unsigned long n_unsymbolled; /* objects without .symtab: sections walked whole */

static void die2(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "asmdiff: inventory: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
    exit(2);
}

static struct form *find_or_add(struct forms *fs, const struct form *f)
{
    for (size_t i = 0; i < fs->n; i++)
        if (!strcmp(fs->v[i].key, f->key)) return &fs->v[i];
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 64;
        fs->v = realloc(fs->v, fs->cap * sizeof *fs->v);
        if (!fs->v) die2("%s%s", "out of memory", "");
    }
    struct form *n = &fs->v[fs->n++];
    *n = *f;
    n->insns = n->supported = 0;
    n->example[0] = 0;
    return n;
}

/* Operand text -> its class ("%zmm3" -> "zmm", "0x40(%rax){1to16}" -> "m{1to16}"). */
static void operand_class(const char *op, size_t n, char *out, size_t outlen)
{
    char t[96];
    if (n >= sizeof t) n = sizeof t - 1;
    memcpy(t, op, n);
    t[n] = 0;
    char *s = t;
    while (*s == ' ') s++;
    const char *bc = strstr(s, "{1to");
    if (strchr(s, '(') && bc) {
        char cnt[8] = "";
        sscanf(bc, "{1to%7[0-9]", cnt);
        snprintf(out, outlen, "m{1to%s}", cnt);
    } else if (strchr(s, '(')) {
        snprintf(out, outlen, "m");
    } else if (*s == '$') {
        snprintf(out, outlen, "imm");
    } else if (*s == '%') {
        const char *r = s + 1;
        if (!strncmp(r, "xmm", 3) || !strncmp(r, "ymm", 3) || !strncmp(r, "zmm", 3))
            snprintf(out, outlen, "%.3s", r);
        else if (r[0] == 'k' && r[1] >= '0' && r[1] <= '7')
            snprintf(out, outlen, "k");
        else if (r[0] == 'r')
            snprintf(out, outlen, r[strlen(r) - 1] == 'd' ? "r32" : r[strlen(r) - 1] == 'w'
                     ? "r16" : r[strlen(r) - 1] == 'b' ? "r8" : "r64");
        else if (r[0] == 'e')
            snprintf(out, outlen, "r32");
        else
            snprintf(out, outlen, "r");
    } else {
        snprintf(out, outlen, "m");
    }
}

/* LLVM's AT&T text -> mnemonic and shape ("imm, m{1to16}, zmm, zmm {k}{z}"). */
static void shape_of(const char *text, char *mn, size_t mnlen, char *shape, size_t shlen)
{
    /* an address-size prefix on a vector instruction (OpenSSL pads with it): part of the
     * form, since the executor must take it */
    const char *prefix = "";
    if (!strncmp(text, "addr32", 6) && text[6] == ' ') {
        prefix = " (addr32)";
        text += 6;
        while (*text == ' ') text++;
    }
    const char *sp = strchr(text, ' ');
    size_t ml = sp ? (size_t)(sp - text) : strlen(text);
    snprintf(mn, mnlen, "%.*s", (int)ml, text);
    shape[0] = 0;
    if (!sp) return;
    char ops[160];
    snprintf(ops, sizeof ops, "%s", sp + 1);
    int kmask = 0, zero = 0;
    char *k = strstr(ops, " {%k");
    if (k) {
        kmask = 1;
        zero = strstr(k, "{z}") != NULL;
        *k = 0;
    }
    size_t o = 0;
    int depth = 0;
    const char *start = ops;
    for (const char *c = ops;; c++) {
        if (*c == '(' || *c == '{') depth++;
        if (*c == ')' || *c == '}') depth--;
        if ((*c == ',' && depth == 0) || !*c) {
            char cls[24];
            operand_class(start, (size_t)(c - start), cls, sizeof cls);
            o += (size_t)snprintf(shape + o, shlen > o ? shlen - o : 0, "%s%s", o ? ", " : "",
                                  cls);
            if (!*c) break;
            start = c + 1;
        }
    }
    if (kmask)
        o += (size_t)snprintf(shape + o, shlen > o ? shlen - o : 0, " {k}%s", zero ? "{z}" : "");
    snprintf(shape + o, shlen > o ? shlen - o : 0, "%s", prefix);
}

/* The encoding of the instruction at p (after segment and address-size prefixes): 1 VEX,
 * 2 EVEX, 0 neither; *vl its vector length from the L bits. */
static int vector_encoding(const uint8_t *p, size_t n, unsigned *vl)
{
    size_t i = 0;
    while (i < n && (p[i] == 0x2e || p[i] == 0x3e || p[i] == 0x26 || p[i] == 0x36 ||
                     p[i] == 0x64 || p[i] == 0x65 || p[i] == 0x67))
        i++;
    if (i + 2 <= n && p[i] == 0xc5) { *vl = (p[i + 1] & 4) ? 256 : 128; return 1; }
    if (i + 3 <= n && p[i] == 0xc4) { *vl = (p[i + 2] & 4) ? 256 : 128; return 1; }
    if (i + 4 <= n && p[i] == 0x62) { *vl = 128u << ((p[i + 3] >> 5) & 3); return 2; }
    return 0;
}

/* Walks [lo, hi) of a section's bytes. */
static void walk(const char *obj, const uint8_t *code, uint64_t base, uint64_t lo, uint64_t hi,
                 struct forms *fs, unsigned long *insns, unsigned long *supported,
                 unsigned long *bad_bytes)
{
    uint64_t off = lo;
    while (off < hi) {
        char text[160];
        size_t avail = hi - off < 15 ? (size_t)(hi - off) : 15;
        size_t len = vx_disasm_len(code + off, avail, base + off, text, sizeof text);
        if (!len) {
            (*bad_bytes)++;
            off++;
            continue;
        }
        unsigned vl = 0;
        int enc = vector_encoding(code + off, len, &vl);
        if (enc) {
            struct form f;
            memset(&f, 0, sizeof f);
            shape_of(text, f.mnemonic, sizeof f.mnemonic, f.shape, sizeof f.shape);
            snprintf(f.enc, sizeof f.enc, "%s", enc == 2 ? "EVEX" : "VEX");
            f.vl = vl;
            snprintf(f.key, sizeof f.key, "%s %s.%u %s", f.mnemonic, f.enc, vl, f.shape);
            struct vx_insn in;
            int ok = vx_decode(code + off, avail, base + off, &in) == 0 && in.len == len;
            struct form *p = find_or_add(fs, &f), *t = find_or_add(&total, &f);
            p->insns++;
            t->insns++;
            (*insns)++;
            if (ok) {
                p->supported++;
                t->supported++;
                (*supported)++;
            } else if (!t->example[0]) {
                snprintf(t->example, sizeof t->example, "%s+0x%llx: %s", obj,
                         (unsigned long long)(base + off), text);
            }
        }
        off += len;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_form(const void *a, const void *b)
{
    return strcmp(((const struct form *)a)->key, ((const struct form *)b)->key);
}

static unsigned long forms_supported(const struct forms *fs)
{
    unsigned long s = 0;
    for (size_t i = 0; i < fs->n; i++) s += fs->v[i].supported == fs->v[i].insns;
    return s;
}

static void csv_field(const char *s)
{
    if (strpbrk(s, ",\"")) {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"') putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
}

static void csv_rows(const char *obj, struct forms *fs)
{
    if (fs->n) qsort(fs->v, fs->n, sizeof *fs->v, cmp_form);
    for (size_t i = 0; i < fs->n; i++) {
        const struct form *f = &fs->v[i];
        if (opt_unsupported && f->supported == f->insns) continue;
        csv_field(obj);
        printf(",%s,%s,%u,", f->mnemonic, f->enc, f->vl);
        csv_field(f->shape);
        printf(",%lu,%lu,%s\n", f->insns, f->supported, f->supported == f->insns ? "yes" : "no");
    }
}

/* One ELF image (a file, or an archive member). */
static void elf_object(const char *name, const uint8_t *img, size_t size)
{
    /* an archive member starts at any even offset: the ELF structures are read from an aligned
     * copy */
    uint8_t *copy = NULL;
    if ((uintptr_t)img & 7) {
        copy = malloc(size ? size : 1);
        if (!copy) die2("%s: %s", name, "out of memory");
        memcpy(copy, img, size);
        img = copy;
    }
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
        die2("%s: not an ELF object, shared object or archive%s", name, "");
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64)
        die2("%s: not x86-64 ELF (%s)", name,
             eh->e_ident[EI_CLASS] == ELFCLASS64 ? "64-bit, another machine" : "not 64-bit");
    if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) || (eh->e_shoff & 7) ||
        eh->e_shoff > size || (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
        die2("%s: no readable section headers%s", name, "");
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    n_objects++;
    /* function symbols, from .symtab; a stripped library's .dynsym names only its exported
     * functions (its assembly is mostly internal), so without .symtab the sections are walked
     * whole (a table kept in .text may then add a few garbage forms: noted below the table) */
    const Elf64_Sym *syms = NULL;
    size_t nsyms = 0;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_offset <= size &&
            sh[i].sh_size <= size - sh[i].sh_offset && !(sh[i].sh_offset & 7) &&
            sh[i].sh_entsize == sizeof(Elf64_Sym)) {
            syms = (const Elf64_Sym *)(img + sh[i].sh_offset);
            nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
            break;
        }
    struct forms fs = {0};
    unsigned long insns = 0, supported = 0, bad = 0;
    for (unsigned s = 0; s < eh->e_shnum; s++) {
        if (sh[s].sh_type != SHT_PROGBITS || !(sh[s].sh_flags & SHF_EXECINSTR) || !sh[s].sh_size)
            continue;
        if (sh[s].sh_offset > size || sh[s].sh_size > size - sh[s].sh_offset)
            die2("%s: a section lies outside the file%s", name, "");
        const uint8_t *code = img + sh[s].sh_offset;
        /* addresses: relocatable objects from 0 in each section; linked ones at sh_addr */
        uint64_t base = eh->e_type == ET_REL ? 0 : sh[s].sh_addr;
        uint64_t *ranges = NULL;
        size_t nr = 0;
        for (size_t k = 0; k < nsyms; k++) {
            unsigned t = ELF64_ST_TYPE(syms[k].st_info);
            if (syms[k].st_shndx != s || syms[k].st_value - base >= sh[s].sh_size ||
                !(t == STT_FUNC || (t == STT_NOTYPE && syms[k].st_size)))
                continue;
            uint64_t lo = syms[k].st_value - base, hi = lo + syms[k].st_size;
            if (!syms[k].st_size) {
                /* a function without .size: up to the next function */
                hi = sh[s].sh_size;
                for (size_t j = 0; j < nsyms; j++) {
                    unsigned tj = ELF64_ST_TYPE(syms[j].st_info);
                    uint64_t a = syms[j].st_value - base;
                    if (syms[j].st_shndx == s && a > lo && a < hi &&
                        (tj == STT_FUNC || (tj == STT_NOTYPE && syms[j].st_size)))
                        hi = a;
                }
            }
            ranges = realloc(ranges, (nr + 1) * 2 * sizeof *ranges);
            if (!ranges) die2("%s%s", "out of memory", "");
            ranges[2 * nr] = lo;
            ranges[2 * nr + 1] = hi > sh[s].sh_size ? sh[s].sh_size : hi;
            nr++;
        }
        if (!nr) {
            walk(name, code, base, 0, sh[s].sh_size, &fs, &insns, &supported, &bad);
        } else {
            qsort(ranges, nr, 2 * sizeof *ranges, cmp_u64);
            uint64_t done = 0; /* aliases and nested symbols: each byte once */
            for (size_t k = 0; k < nr; k++) {
                uint64_t lo = ranges[2 * k] > done ? ranges[2 * k] : done, hi = ranges[2 * k + 1];
                if (lo < hi) walk(name, code, base, lo, hi, &fs, &insns, &supported, &bad);
                if (hi > done) done = hi;
            }
        }
        free(ranges);
    }
    if (insns) {
        n_vector_objects++;
        if (!syms) n_unsymbolled++;
        n_insns_total += insns;
        n_supported_total += supported;
        if (opt_csv) {
            csv_rows(name, &fs);
        } else {
            unsigned long fsup = forms_supported(&fs);
            printf("%7lu %7lu %6zu %6lu %6lu  %s\n", insns, supported, fs.n, fsup,
                   (unsigned long)fs.n - fsup, name);
        }
    }
    free(fs.v);
    free(copy);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) die2("%s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            buf = realloc(buf, cap);
            if (!buf) die2("%s: %s", path, "out of memory");
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (!got) break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) die2("%s: %s", path, "read error");
    *size = n;
    return buf;
}

/* A System V / GNU ar archive: every member that is an object. */
static void archive(const char *path, const uint8_t *a, size_t size)
{
    const char *longnames = NULL;
    size_t longlen = 0, off = 8;
    while (off + 60 <= size) {
        const char *h = (const char *)a + off;
        if (h[58] != '`' || h[59] != '\n') die2("%s: corrupt archive member header at %s", path, "");
        char sz[11];
        memcpy(sz, h + 48, 10);
        sz[10] = 0;
        char *end;
        unsigned long msize = strtoul(sz, &end, 10);
        if (end == sz || msize > size - off - 60) die2("%s: corrupt archive (member size)%s", path, "");
        const uint8_t *m = a + off + 60;
        char mname[256];
        if (h[0] == '/' && h[1] == ' ') {
            mname[0] = 0; /* the symbol index */
        } else if (h[0] == '/' && h[1] == '/') {
            longnames = (const char *)m;
            longlen = msize;
            mname[0] = 0;
        } else if (h[0] == '/') {
            unsigned long lo = strtoul(h + 1, NULL, 10);
            if (!longnames || lo >= longlen) die2("%s: corrupt archive (long name)%s", path, "");
            size_t k = 0;
            while (lo + k < longlen && longnames[lo + k] != '/' && longnames[lo + k] != '\n' &&
                   k + 1 < sizeof mname)
                k++;
            memcpy(mname, longnames + lo, k);
            mname[k] = 0;
        } else {
            size_t k = 0;
            while (k < 16 && h[k] != '/' && h[k] != ' ') k++;
            memcpy(mname, h, k);
            mname[k] = 0;
        }
        if (mname[0]) {
            char full[1024];
            snprintf(full, sizeof full, "%s(%s)", path, mname);
            if (msize >= SELFMAG && !memcmp(m, ELFMAG, SELFMAG))
                elf_object(full, m, msize);
        }
        off += 60 + msize + (msize & 1);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: vx_inventory [--csv] [--unsupported] [--require-all] "
                    "[--min-objects N] FILE...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int require_all = 0, nfiles = 0;
    long min_objects = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv")) opt_csv = 1;
        else if (!strcmp(argv[i], "--unsupported")) opt_unsupported = 1;
        else if (!strcmp(argv[i], "--require-all")) require_all = 1;
        else if (!strcmp(argv[i], "--min-objects") && i + 1 < argc) {
            char *end;
            min_objects = strtol(argv[++i], &end, 10);
            if (*end || min_objects < 0) usage();
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "asmdiff: inventory: unknown option '%s'\n", argv[i]);
            usage();
        } else nfiles++;
    }
    if (!nfiles) usage();
    if (!vx_disasm_available()) {
        printf("SKIP: this build has no LLVM disassembler (llvm-19-dev): the inventory needs "
               "it to walk the code\n");
        return 77;
    }
    /* check every file before printing anything: bad input is an error, not half a table */
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' ) { if (!strcmp(argv[i], "--min-objects")) i++; continue; }
        FILE *fp = fopen(argv[i], "rb");
        if (!fp) die2("%s: %s", argv[i], strerror(errno));
        char mg[8] = {0};
        size_t got = fread(mg, 1, 8, fp);
        fclose(fp);
        if (got >= 8 && !memcmp(mg, "!<thin>\n", 8))
            die2("%s: a thin archive (its members are other files: list those)%s", argv[i], "");
        if (!(got >= 8 && !memcmp(mg, "!<arch>\n", 8)) && !(got >= 4 && !memcmp(mg, ELFMAG, 4)))
            die2("%s: not an ELF object, shared object or ar archive%s", argv[i], "");
    }
    if (opt_csv)
        printf("object,mnemonic,encoding,length,operands,instructions,supported_instructions,"
               "supported\n");
    else
        printf("%7s %7s %6s %6s %6s  %s\n", "insns", "run", "forms", "supp", "unsup", "object");
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') { if (!strcmp(argv[i], "--min-objects")) i++; continue; }
        size_t size;
        uint8_t *img = read_file(argv[i], &size);
        if (size >= 8 && !memcmp(img, "!<arch>\n", 8))
            archive(argv[i], img, size);
        else
            elf_object(argv[i], img, size);
        free(img);
    }
    unsigned long fsup = forms_supported(&total);
    if (total.n) qsort(total.v, total.n, sizeof *total.v, cmp_form);
    if (opt_csv) {
        csv_rows("TOTAL", &total);
    } else {
        printf("%7lu %7lu %6zu %6lu %6lu  %s\n", n_insns_total, n_supported_total, total.n, fsup,
               (unsigned long)total.n - fsup, "total (distinct forms)");
        printf("inventory: %lu objects read, %lu with VEX/EVEX code; %lu VEX/EVEX instructions "
               "(%lu the executor runs); %zu forms: %lu supported, %lu unsupported\n",
               n_objects, n_vector_objects, n_insns_total, n_supported_total, total.n, fsup,
               (unsigned long)total.n - fsup);
    }
    if (n_unsymbolled && !opt_csv)
        printf("inventory: %lu object(s) without a symbol table (stripped): their executable "
               "sections were walked whole, so data kept in them may show as instructions\n",
               n_unsymbolled);
    if (opt_unsupported && !opt_csv)
        for (size_t i = 0; i < total.n; i++)
            if (total.v[i].supported != total.v[i].insns)
                printf("unsupported: %-50s %5lu of %5lu  e.g. %s\n", total.v[i].key,
                       total.v[i].insns - total.v[i].supported, total.v[i].insns,
                       total.v[i].example);
    int rc = 0;
    if (require_all && fsup != total.n) {
        fprintf(stderr, "asmdiff: inventory: %lu form(s) the executor does not support\n",
                (unsigned long)total.n - fsup);
        rc = 1;
    }
    if ((long)n_vector_objects < min_objects) {
        fprintf(stderr, "asmdiff: inventory: %lu object(s) with VEX/EVEX code, expected at least "
                "%ld\n", n_vector_objects, min_objects);
        rc = 1;
    }
    return rc;
}

/* ucheck_elf.c — see ucheck_elf.h. */
#define _GNU_SOURCE
#include "emu/ucheck_elf.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct elfsym {
    uint64_t addr; /* run-time address: st_value + load bias */
    uint64_t size;
    const char *name;
    int type; /* STT_FUNC, STT_OBJECT or STT_NOTYPE */
};

static struct elfsym *syms;
static size_t nsyms;
static char *strtab; /* owns the names */
static int loaded;   /* 0: not tried, 1: done (possibly empty) */

/* The first object dl_iterate_phdr reports is the main program; its dlpi_addr is the load
 * bias that turns a .symtab st_value into a run-time address (0 for a non-PIE binary). */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uint64_t *)data = info->dlpi_addr;
    return 1;
}

static int by_addr(const void *a, const void *b)
{
    const struct elfsym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        char *grown = realloc(buf, cap *= 2);
        if (!grown) free(buf);
        buf = grown;
    }
    fclose(f);
    *len = n;
    return buf;
}

int elfsym_load(void)
{
    if (loaded) return nsyms ? 0 : -1;
    loaded = 1;

    uint64_t bias = 0;
    dl_iterate_phdr(first_object, &bias);

    size_t len;
    unsigned char *img = read_all("/proc/self/exe", &len);
    if (!img) return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff + (uint64_t)eh->e_shnum *
        sizeof(Elf64_Shdr) > len)
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    for (size_t i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *st = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > len || st->sh_offset + st->sh_size > len) break;
        strtab = malloc(st->sh_size + 1);
        syms = calloc(sh[i].sh_size / sizeof(Elf64_Sym) + 1, sizeof *syms);
        if (!strtab || !syms) break;
        memcpy(strtab, img + st->sh_offset, st->sh_size);
        strtab[st->sh_size] = 0;
        const Elf64_Sym *s = (const Elf64_Sym *)(img + sh[i].sh_offset);
        for (size_t j = 0; j < sh[i].sh_size / sizeof *s; j++) {
            int type = ELF64_ST_TYPE(s[j].st_info);
            /* Functions and data objects only: section and file symbols would shadow them. */
            if (s[j].st_shndx == SHN_UNDEF || s[j].st_shndx >= SHN_LORESERVE) continue;
            if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
            if (s[j].st_name >= st->sh_size || !strtab[s[j].st_name]) continue;
            syms[nsyms++] = (struct elfsym){s[j].st_value + bias, s[j].st_size,
                                            strtab + s[j].st_name, type};
        }
        break;
    }
    qsort(syms, nsyms, sizeof *syms, by_addr);
out:
    free(img);
    return nsyms ? 0 : -1;
}

int elfsym_lookup(const char *name, uint64_t *addr, uint64_t *size)
{
    elfsym_load();
    for (size_t i = 0; i < nsyms; i++)
        if (strcmp(syms[i].name, name) == 0) {
            *addr = syms[i].addr;
            *size = syms[i].size;
            return 0;
        }
    return -1;
}

int elfsym_function_at(uint64_t addr, uint64_t *size)
{
    elfsym_load();
    size_t lo = 0, hi = nsyms; /* syms is sorted by address */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (syms[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < nsyms && syms[lo].addr == addr; lo++)
        if (syms[lo].type == STT_FUNC && syms[lo].size) {
            *size = syms[lo].size;
            return 0;
        }
    return -1;
}

const char *elfsym_format(uint64_t addr, char *buf, size_t len)
{
    elfsym_load();
    /* The innermost symbol that holds the address; else the nearest one below it (an assembly
     * label without .size has size 0). */
    const struct elfsym *holder = NULL, *below = NULL;
    for (size_t i = 0; i < nsyms && syms[i].addr <= addr; i++) {
        below = &syms[i];
        if (addr < syms[i].addr + syms[i].size) holder = &syms[i];
    }
    const struct elfsym *s = holder ? holder : below;
    if (s && addr - s->addr < (1u << 20))
        snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
    else
        snprintf(buf, len, "0x%llx", (unsigned long long)addr);
    return buf;
}

size_t elfsym_objects_in(uint64_t lo, uint64_t hi, const struct elfsym_object **objs,
                         size_t *unsized)
{
    static struct elfsym_object *table;
    size_t n = 0, none = 0;
    elfsym_load();
    free(table);
    table = calloc(nsyms + 1, sizeof *table);
    *objs = table;
    if (!table) {
        *unsized = 0;
        return 0;
    }
    for (size_t i = 0; i < nsyms; i++) {
        const struct elfsym *s = &syms[i];
        if (s->addr < lo || s->addr >= hi || s->type == STT_FUNC) continue;
        if (!s->size) {
            none++;
            continue;
        }
        /* syms is sorted by address: an alias of the previous object is the same table */
        if (n && table[n - 1].addr == s->addr) {
            if (s->size > table[n - 1].size) table[n - 1].size = s->size;
            continue;
        }
        table[n++] = (struct elfsym_object){s->addr, s->size, s->name};
    }
    *unsized = none;
    return n;
}

int elfsec_lookup(const char *name, uint64_t *addr, uint64_t *size)
{
    uint64_t bias = 0;
    dl_iterate_phdr(first_object, &bias);
    size_t len;
    unsigned char *img = read_all("/proc/self/exe", &len);
    int rc = -1;
    if (!img) return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shoff == 0 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    if (names->sh_offset + names->sh_size > len) goto out;
    for (size_t i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name >= names->sh_size) continue;
        const char *n = (const char *)img + names->sh_offset + sh[i].sh_name;
        if (strnlen(n, names->sh_size - sh[i].sh_name) == names->sh_size - sh[i].sh_name)
            continue;
        if (strcmp(n, name) == 0 && (sh[i].sh_flags & SHF_ALLOC)) {
            *addr = sh[i].sh_addr + bias;
            *size = sh[i].sh_size;
            rc = 0;
            break;
        }
    }
out:
    free(img);
    return rc;
}

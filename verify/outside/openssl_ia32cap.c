/* openssl_ia32cap.c — what OpenSSL's perlasm files take from the rest of libcrypto, for a check
 * build of the openssl and win64 conventions (tools/asmdiff/check/build.py adds it as a --with
 * file): OPENSSL_ia32cap_P, the CPU capability vector their entry points choose a path from
 * (the convention sets it before each call: fuzz/conventions/openssl_chacha.c), and for the
 * Win64 flavour the import slot its SEH handlers call through (RtlVirtualUnwind's: Windows'
 * unwinder calls those handlers; nothing on Linux does, so the slot stays NULL). */
unsigned int OPENSSL_ia32cap_P[4];
void *__imp_RtlVirtualUnwind;

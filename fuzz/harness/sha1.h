/* sha1.h — SHA-1 (FIPS 180-4), only to name the file libFuzzer writes a crashing input to
 * (crash-<sha1 of the input>), so a report can print the reproduce command itself. */
#ifndef ASMDIFF_SHA1_H
#define ASMDIFF_SHA1_H

#include <stddef.h>
#include <stdint.h>

void sha1(const uint8_t *data, size_t len, uint8_t digest[20]);

#endif

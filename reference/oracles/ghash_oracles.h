/* ghash_oracles.h — library GHASH for the ghash family (fuzz/ghash.c): each adapter has the
 * family's update contract (kernels/ghash/ghash.h): state = (state xor X) . H for each block,
 * GCM's byte order, nblocks >= 0.  *_describe says which library and version. */
#ifndef ASMDIFF_GHASH_ORACLES_H
#define ASMDIFF_GHASH_ORACLES_H

#include <stddef.h>
#include <stdint.h>

void oracle_nettle_ghash_update(uint8_t state[16], const uint8_t key_h[16],
                                const uint8_t *blocks, size_t nblocks);
const char *oracle_nettle_ghash_describe(void);

#endif

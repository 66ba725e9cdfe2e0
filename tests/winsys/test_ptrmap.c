/* SPDX-License-Identifier: MIT */
/*
 * The pointer map behind every handle -> vendor lookup (src/winsys/ptrmap.c): claim and
 * claim_all (the FBConfig lists libGLX registers by the hundred) agree with get, skip NULL
 * keys, reuse tombstones, stop at the first key another owner holds and leave the keys after
 * it alone, and survive growth and removal.
 */
#include <stdint.h>
#include <string.h>

#include "glmux_test.h"
#include "winsys/winsys.h"

#define N 840

static char configs[N][64];     /* stand-ins for a vendor's FBConfigs */

int main(void)
{
    struct glmux_ptrmap map = { 0 };
    void *list[N + 2];
    int a, b;
    size_t at = 12345;

    /* One key at a time. */
    CHECK(glmux_ptrmap_claim(&map, 0, &a) == &a);                   /* never a key */
    CHECK(glmux_ptrmap_claim(&map, (uintptr_t)configs[0], &a) == NULL);
    CHECK(glmux_ptrmap_claim(&map, (uintptr_t)configs[0], &b) == &a);
    CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[0]) == &a && map.count == 1);

    /* A list with a NULL entry, one key claimed already by the same owner. */
    for (int i = 0; i < N; i++)
        list[i] = configs[i];
    list[N] = NULL;
    list[N + 1] = configs[0];
    CHECK(glmux_ptrmap_claim_all(&map, list, N + 2, &a, &at) == NULL);
    CHECK(map.count == N);
    for (int i = 0; i < N; i++)
        CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[i]) == &a);

    /* Tombstones on the probe sequences: remove half, claim them again. */
    for (int i = 0; i < N; i += 2)
        CHECK(glmux_ptrmap_remove(&map, (uintptr_t)configs[i]) == &a);
    CHECK(map.count == N / 2);
    CHECK(glmux_ptrmap_claim_all(&map, list, N, &a, &at) == NULL);
    CHECK(map.count == N);
    for (int i = 0; i < N; i++)
        CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[i]) == &a);

    /* Another owner: stops at the first key a holds, claims what came before it only. */
    glmux_ptrmap_clear(&map);
    CHECK(glmux_ptrmap_claim(&map, (uintptr_t)configs[500], &a) == NULL);
    CHECK(glmux_ptrmap_claim_all(&map, list, N, &b, &at) == &a);
    CHECK(at == 500);
    CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[499]) == &b);
    CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[500]) == &a);
    CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[501]) == NULL);
    CHECK(map.count == 501);

    /* An empty list, and growth from an empty map through claim alone. */
    CHECK(glmux_ptrmap_claim_all(&map, list, 0, &b, &at) == NULL);
    glmux_ptrmap_clear(&map);
    for (int i = 0; i < N; i++)
        CHECK(glmux_ptrmap_claim(&map, (uintptr_t)configs[i], &b) == NULL);
    for (int i = 0; i < N; i++)
        CHECK(glmux_ptrmap_get(&map, (uintptr_t)configs[i]) == &b);
    CHECK(map.count == N && map.used * 2 <= map.cap);
    glmux_ptrmap_clear(&map);
    puts("ok: ptrmap claim and claim_all");
    return 0;
}

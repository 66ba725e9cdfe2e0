/* SPDX-License-Identifier: MIT */
/*
 * glmux: a pthread key made at its first use, behind an atomic gate, for a thread's small
 * value that a dlopened library keeps without TLS (a library's TLS takes glibc's static TLS
 * reserve at each dlopen, or allocates at a thread's first use). Header only, so that a
 * library that links nothing of util/ (the re-entry guard) uses it too; pthread_once is not
 * used, as everywhere in glmux (a fork during the first use would leave it stuck in a child).
 * A gate starts zeroed (static storage): state 0 not made, 1 being made, 2 made, -1 failed.
 */
#ifndef GLMUX_UTIL_LAZY_KEY_H
#define GLMUX_UTIL_LAZY_KEY_H

#include <pthread.h>
#include <stdbool.h>

struct glmux_lazy_key {
    pthread_key_t key;
    int state;
};

/* Whether the key is made, without making it. */
static inline bool glmux_lazy_key_made(const struct glmux_lazy_key *k)
{
    return __atomic_load_n(&k->state, __ATOMIC_ACQUIRE) == 2;
}

/* Makes the key at the first call (no destructor: the values are plain numbers); false when
 * it could not be made, or while another thread is making it. */
static inline bool glmux_lazy_key_ready(struct glmux_lazy_key *k)
{
    int st = __atomic_load_n(&k->state, __ATOMIC_ACQUIRE), expected = 0;

    if (st != 0)
        return st == 2;
    if (!__atomic_compare_exchange_n(&k->state, &expected, 1, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return expected == 2;
    st = pthread_key_create(&k->key, NULL) == 0 ? 2 : -1;
    __atomic_store_n(&k->state, st, __ATOMIC_RELEASE);
    return st == 2;
}

/* Deletes a made key (a library's unload); the next use makes it again. */
static inline void glmux_lazy_key_delete(struct glmux_lazy_key *k)
{
    if (glmux_lazy_key_made(k)) {
        pthread_key_delete(k->key);
        __atomic_store_n(&k->state, 0, __ATOMIC_RELEASE);
    }
}

#endif /* GLMUX_UTIL_LAZY_KEY_H */

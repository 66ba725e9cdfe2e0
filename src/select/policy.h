/* SPDX-License-Identifier: MIT */
/*
 * glmux: the selector object, shared by the files of the PRIME policy inside glmux_select
 * (policy.c: the object, the variables, the GPU list and the reasons; choose.c: the one rule for
 * a GPU; order.c: EGL and GLX vendor orders; launch.c: what a new process is given). Nothing in
 * it changes after glmux_select_new except the GPU list, published once with a compare-and-swap,
 * and the reasons, a lock-free list (select.h, "Threads").
 */
#ifndef GLMUX_SELECT_POLICY_H
#define GLMUX_SELECT_POLICY_H

#include "select/select.h"

struct glmux_select_reason;

struct glmux_select {
    glmux_select_getenv_fn getenv;
    bool keep_reasons;
    bool quiet;
    struct glmux_gpu_request request;   /* the request in effect */
    struct glmux_gpu_request dri_prime; /* DRI_PRIME as Mesa reads it; kind NONE when unset */
    bool nv_offload;                    /* __NV_PRIME_RENDER_OFFLOAD is a non-zero number */
    struct glmux_gpu_request nv;        /* ... and the NVIDIA GPU it names (kind NVIDIA) */
    struct glmux_gpu_list *gpus;        /* NULL until enumerated; atomic */
    struct glmux_select_reason *reasons; /* newest first; atomic */
};

/* Records (and logs, under category) a reason, unless the same text was recorded already. */
void glmux_select_note(struct glmux_select *sel, unsigned category, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A variable as the selector reads it: NULL when unset or empty. */
const char *glmux_select_env_value(const struct glmux_select *sel, const char *name);

/* The libglvnd variable that fixes the EGL vendor list, or NULL. */
const char *glmux_select_egl_override(const struct glmux_select *sel);

/* The GPU list when it was enumerated already, else NULL (never enumerates). */
const struct glmux_gpu_list *glmux_select_gpus_if_enumerated(const struct glmux_select *sel);

/* Whether a GPU has a render node (only such a GPU renders or is chosen). */
static inline bool glmux_gpu_renders(const struct glmux_gpu *g)
{
    return g != NULL && g->render_node[0] != '\0';
}

/* Where vendors come from in a decision: the candidates, or (cands NULL) each GPU's served_by. */
struct glmux_select_vendors {
    const struct glmux_select_candidate *cands;
    size_t n;
};

/* The name of the first vendor that serves gpu; NULL when none. */
const char *glmux_select_vendor_of(const struct glmux_select_vendors *v,
                                   const struct glmux_gpu *gpu);

/* What a decision records: nothing (for "would another reference change the result?"), its
 * reasons at level select (the display's GPU is unknown and another one would meet the
 * request: a warning could be false), or its reasons with the warning for an unmet request. */
enum glmux_select_record { GLMUX_RECORD_NONE, GLMUX_RECORD_NOTE, GLMUX_RECORD_WARN };

/* glmux_select_choose with the vendors given as above. */
void glmux_select_decide(struct glmux_select *sel, const struct glmux_gpu *reference,
                         const struct glmux_select_vendors *v, enum glmux_select_record record,
                         struct glmux_select_choice *out);

/*
 * How the decision depends on the display's GPU, each render GPU taken as the reference:
 * order_differs (the vendors in cands come in different orders), unmet_differs (the request is
 * met for one and not another: whether to warn depends on it), all_unmet (unmet for each),
 * one_vendor (one vendor serves every render GPU: then no display is asked, and a request is
 * judged against the default GPU, as before any display).
 */
struct glmux_select_survey {
    bool order_differs, unmet_differs, all_unmet, one_vendor;
};

/* Whether the display's GPU decides something: the order, or (with GPUs of different
 * vendors) whether the request is met. */
static inline bool glmux_select_survey_asks(const struct glmux_select_survey *s)
{
    return s->order_differs || (s->unmet_differs && !s->one_vendor);
}
void glmux_select_survey(struct glmux_select *sel, const struct glmux_select_vendors *v,
                         struct glmux_select_survey *out);

#endif /* GLMUX_SELECT_POLICY_H */

/* SPDX-License-Identifier: MIT */
/*
 * glmux GL layer tests: the trace the test layers write into the test program (see
 * layer_test.h). One buffer under a lock, since layers are called from several threads; what
 * does not fit is counted but not kept.
 */
#include "layer_test.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static char trace_buf[16384];
static int trace_calls;

void glmux_layer_test_trace(const char *layer, const char *what)
{
    pthread_mutex_lock(&trace_lock);
    trace_calls++;
    if (strlen(trace_buf) + strlen(layer) + strlen(what) + 3 < sizeof(trace_buf)) {
        strcat(trace_buf, layer);
        strcat(trace_buf, ":");
        strcat(trace_buf, what);
        strcat(trace_buf, " ");
    }
    pthread_mutex_unlock(&trace_lock);
}

const char *glmux_layer_test_trace_take(void)
{
    static char copy[sizeof(trace_buf)];

    pthread_mutex_lock(&trace_lock);
    memcpy(copy, trace_buf, sizeof(copy));
    trace_buf[0] = '\0';
    trace_calls = 0;
    pthread_mutex_unlock(&trace_lock);
    return copy;
}

int glmux_layer_test_trace_calls(void)
{
    int n;

    pthread_mutex_lock(&trace_lock);
    n = trace_calls;
    pthread_mutex_unlock(&trace_lock);
    return n;
}

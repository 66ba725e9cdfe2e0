/* SPDX-License-Identifier: MIT */
/*
 * glmux dispatch tests: in-process fake vendors. Each of FAKE_VENDORS vendors provides
 * glVertex3fv, glClear, glGetError and two made-up functions (glmuxTestBeforeMUX, resolved before
 * any make-current, and glmuxTestAfterMUX, after), each counting its calls per thread and
 * in total, so a test can tell which vendor a call reached.
 */
#ifndef GLMUX_FAKE_VENDOR_H
#define GLMUX_FAKE_VENDOR_H

#include <GL/gl.h>

#include "GLdispatch.h"

#define FAKE_VENDORS 3

struct fake_vendor {
    int index;
    int id;                       /* from __glDispatchNewVendorID */
    __GLdispatchTable *table;
    int calls_total;              /* all threads, atomically */
};

extern struct fake_vendor fake_vendors[FAKE_VENDORS];
/* Calls this thread made, by vendor. */
extern __thread int fake_thread_calls[FAKE_VENDORS];
/* What the made-up functions of vendor v return: 100 + v. */
#define FAKE_GET_ERROR_RESULT(v) (0x500 + (v))

/* The arguments the last glColor4f, glOrtho or glTexImage2D call received (any vendor). */
extern double fake_last_args[9];

/* Creates the vendors' ids and tables. */
void fake_vendors_init(void);

/* Another dispatch table answering as vendor v. */
__GLdispatchTable *fake_vendor_new_table(int v);

/* A thread state for make-current, with a destructor callback counting calls. */
struct fake_thread_state {
    __GLdispatchThreadState base;
    int vendor;
};
extern int fake_thread_destroyed; /* atomically counted */
void fake_thread_state_init(struct fake_thread_state *state, int vendor);

/* Makes vendor v current on this thread (with optional patch callbacks). */
GLboolean fake_make_current(struct fake_thread_state *state, int v,
                            const __GLdispatchPatchCallbacks *patch);

/*
 * A vendor whose getProcAddress calls into libGLdispatch. fake_vendor_waiting_table(v) answers
 * as vendor v; once armed, its getProcAddress, asked for trigger, runs action: on a thread of
 * its own that it waits for (at most FAKE_WAIT_SECONDS: a libGLdispatch lock held across the
 * getProcAddress would keep the thread from returning), or with same_thread on the asking
 * thread. fake_vendor_wait_finish joins the thread and returns how often a wait timed out.
 */
#define FAKE_WAIT_SECONDS 5
__GLdispatchTable *fake_vendor_waiting_table(int v);
void fake_vendor_wait_arm(const char *trigger, void (*action)(void), int same_thread);
int fake_vendor_wait_fired(void);
int fake_vendor_wait_finish(void);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: XCloseDisplay while GLX contexts are current, handled as libglvnd handles it.
 * On the closing thread the context is let go without a call into its vendor:
 * glXGetCurrentContext and glXGetCurrentDisplay answer NULL and GL calls reach no vendor. On
 * another thread the context stays current and glXGetCurrentDisplay answers NULL, so that
 * releasing it later hands its vendor no closed display. A connection a context was only made
 * current on (not created on) counts the same; other connections are left alone. The context
 * itself outlives the connection: it can be made current on another one.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <X11/Xlib.h>
#include <GL/gl.h>
#include <GL/glx.h>

#include "fake_vendor.h"
#include "glmux_test.h"
#include "glx_test_x.h"

typedef int (*count_fn)(Display *, int, int);

struct other {
    Display *keep, *on;         /* "on": the connection the context is made current on */
    GLXContext ctx;
    const char *renderer;       /* what GL_RENDERER must say while it is current */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int step;                   /* 1: current (or 9: failed); 2: "on" closed; 3: checked */
    char failure[160];
};

static int make_current_calls(Display *dpy)
{
    count_fn fn = (count_fn)glXGetProcAddress((const GLubyte *)"glXFakeCountGLMUX");

    CHECK(fn != NULL);
    return fn(dpy, 0, FAKE_COUNT_MAKE_CURRENT);
}

static void step_to(struct other *o, int step)
{
    pthread_mutex_lock(&o->lock);
    o->step = step;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->lock);
}

static void wait_for(struct other *o, int step)
{
    pthread_mutex_lock(&o->lock);
    while (o->step < step)
        pthread_cond_wait(&o->cond, &o->lock);
    pthread_mutex_unlock(&o->lock);
}

static void *other_thread(void *data)
{
    struct other *o = data;
    const char *r;

    if (!glXMakeCurrent(o->on, None, o->ctx)) {
        snprintf(o->failure, sizeof(o->failure), "glXMakeCurrent on the second connection");
        step_to(o, 9);
        return NULL;
    }
    step_to(o, 1);
    wait_for(o, 2);
    r = (const char *)glGetString(GL_RENDERER);
    if (glXGetCurrentDisplay() != NULL)
        snprintf(o->failure, sizeof(o->failure), "glXGetCurrentDisplay still answers the "
                 "closed connection");
    else if (glXGetCurrentContext() != o->ctx)
        snprintf(o->failure, sizeof(o->failure), "the context is no longer current here");
    else if (r == NULL || strcmp(r, o->renderer) != 0)
        snprintf(o->failure, sizeof(o->failure), "GL_RENDERER \"%s\", not \"%s\"",
                 r ? r : "(null)", o->renderer);
    else if (!glXMakeCurrent(o->keep, None, NULL) || glXGetCurrentContext() != NULL)
        snprintf(o->failure, sizeof(o->failure), "releasing the context failed");
    step_to(o, 3);
    return NULL;
}

static GLXContext context_on(Display *dpy, char *renderer, size_t size)
{
    GLXFBConfig *configs;
    GLXContext ctx;
    int n = 0, id = -1;

    configs = glXChooseFBConfig(dpy, 0, NULL, &n);
    CHECK(configs != NULL && n > 0);
    ctx = glXCreateNewContext(dpy, configs[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(ctx != NULL);
    CHECK(glXQueryContext(dpy, ctx, FAKE_ATTRIB_ID, &id) == Success);
    snprintf(renderer, size, "fakea ctx %d", id);
    XFree(configs);
    return ctx;
}

int main(void)
{
    struct other o = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    char mine_renderer[64], their_renderer[64];
    Display *keep, *first;
    GLXContext mine;
    pthread_t thread;
    const char *r;
    int calls;

    XInitThreads();
    keep = glx_test_open("two");
    first = glx_test_open("two");
    o.keep = keep;
    o.on = glx_test_open("two");
    glmux_test_require_ours("libGLX.so.0");
    mine = context_on(first, mine_renderer, sizeof(mine_renderer));
    o.ctx = context_on(keep, their_renderer, sizeof(their_renderer));
    o.renderer = their_renderer;

    /* This thread: current on "first", which is then closed. */
    CHECK(glXMakeCurrent(first, None, mine));
    r = (const char *)glGetString(GL_RENDERER);
    CHECK(r != NULL && strcmp(r, mine_renderer) == 0);
    calls = make_current_calls(keep);
    XCloseDisplay(first);
    CHECK_MSG(glXGetCurrentContext() == NULL, "the context is still current after XCloseDisplay");
    CHECK_MSG(glXGetCurrentDisplay() == NULL, "glXGetCurrentDisplay answers a closed connection");
    CHECK_MSG(glGetString(GL_RENDERER) == NULL, "GL calls still reach the vendor");
    CHECK_MSG(make_current_calls(keep) == calls, "the vendor was called while its display closed");
    /* The context outlives the connection it was made on. */
    CHECK(glXMakeCurrent(keep, None, mine));
    r = (const char *)glGetString(GL_RENDERER);
    CHECK(r != NULL && strcmp(r, mine_renderer) == 0);

    /* Another thread: its context is current on o.on, which this thread closes. */
    CHECK(pthread_create(&thread, NULL, other_thread, &o) == 0);
    wait_for(&o, 1);
    CHECK_MSG(o.step == 1, "%s", o.failure);
    XCloseDisplay(o.on);
    /* This thread's context, current on another connection, is untouched. */
    CHECK(glXGetCurrentContext() == mine && glXGetCurrentDisplay() == keep);
    r = (const char *)glGetString(GL_RENDERER);
    CHECK(r != NULL && strcmp(r, mine_renderer) == 0);
    step_to(&o, 2);
    wait_for(&o, 3);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_MSG(o.failure[0] == '\0', "the other thread: %s", o.failure);

    CHECK(glXMakeCurrent(keep, None, NULL));
    glXDestroyContext(keep, mine);
    glXDestroyContext(keep, o.ctx);
    XCloseDisplay(keep);
    printf("ok: contexts current on closed connections were let go (this thread) or forgotten "
           "(another thread), as with libglvnd\n");
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * glmux: the few GLX requests libGLX sends itself, written straight onto the Xlib connection:
 * QueryServerString (GLX_EXTENSIONS and the GLX_EXT_libglvnd vendor names), QueryVersion,
 * GetDrawableAttributes and QueryContext (to learn a screen), plus core QueryTree for plain
 * X windows. Errors these requests cause are swallowed by an error hook on our
 * XAddExtension record (glmux_glx_x11_error_hook), so they never reach the application's X
 * error handler. What the replies carry is decoded by glx_reply.c, through the
 * struct glmux_glx_conn below.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlibint.h>
#include <GL/glxproto.h>

#include "glx/glx_reply.h"
#include "glx/glx_x11.h"
#include "glx/glx_x11_request.h"

/* The sequence number whose error this thread is waiting to swallow; 0 for none. */
static __thread unsigned long quiet_seq;
static __thread bool quiet_hit;

int glmux_glx_x11_error_hook(Display *dpy, xError *err, XExtCodes *codes, int *ret_code)
{
    (void)codes;
    if (quiet_seq == 0 || (err->sequenceNumber & 0xFFFF) != (quiet_seq & 0xFFFF) ||
        dpy->request != quiet_seq)
        return False;
    quiet_hit = true;
    *ret_code = 0;
    return True;
}

static void quiet_begin(Display *dpy)
{
    quiet_seq = dpy->request;
    quiet_hit = false;
}

static void quiet_end(void)
{
    quiet_seq = 0;
}

/* A reply's data, read from the Xlib connection (display locked). */
static void conn_read(void *ctx, void *buf, size_t size)
{
    _XRead((Display *)ctx, buf, (long)size);
}

static void conn_skip(void *ctx, uint32_t words)
{
    _XEatDataWords((Display *)ctx, words);
}

static struct glmux_glx_conn conn_of(Display *dpy)
{
    return (struct glmux_glx_conn){ .read = conn_read, .skip = conn_skip, .ctx = dpy };
}

char *glmux_glx_x11_query_server_string(Display *dpy, int opcode, int screen, int name)
{
    xGLXQueryServerStringReq *req;
    xGLXQueryServerStringReply reply;
    char *str = NULL;

    LockDisplay(dpy);
    GetReq(GLXQueryServerString, req);
    req->reqType = (CARD8)opcode;
    req->glxCode = X_GLXQueryServerString;
    req->screen = (CARD32)screen;
    req->name = (CARD32)name;
    quiet_begin(dpy);
    if (_XReply(dpy, (xReply *)&reply, 0, False)) {
        struct glmux_glx_conn conn = conn_of(dpy);

        str = glmux_glx_reply_string(&conn, reply.length, reply.n);
    }
    quiet_end();
    UnlockDisplay(dpy);
    SyncHandle();
    return str;
}

Bool glmux_glx_x11_query_version(Display *dpy, int opcode, int *major, int *minor)
{
    xGLXQueryVersionReq *req;
    xGLXQueryVersionReply reply;
    Bool ok;

    LockDisplay(dpy);
    GetReq(GLXQueryVersion, req);
    req->reqType = (CARD8)opcode;
    req->glxCode = X_GLXQueryVersion;
    req->majorVersion = 1;
    req->minorVersion = 4;
    quiet_begin(dpy);
    ok = _XReply(dpy, (xReply *)&reply, 0, False) != 0;
    quiet_end();
    UnlockDisplay(dpy);
    SyncHandle();
    if (!ok)
        return False;
    *major = (int)reply.majorVersion;
    *minor = (int)reply.minorVersion;
    return True;
}

/*
 * The one request both screen questions send: GetDrawableAttributes (a drawable) and
 * QueryContext (a context) name one XID and are answered with (attribute, value) pairs; the
 * value of GLX_SCREEN, or -1. The two requests, and the two replies, have one layout.
 */
_Static_assert(sizeof(xGLXGetDrawableAttributesReq) == sizeof(xGLXQueryContextReq) &&
               offsetof(xGLXGetDrawableAttributesReq, drawable) ==
                   offsetof(xGLXQueryContextReq, context) &&
               offsetof(xGLXGetDrawableAttributesReply, numAttribs) ==
                   offsetof(xGLXQueryContextReply, n),
               "GetDrawableAttributes and QueryContext share one request and reply layout");
static int attribs_screen(Display *dpy, int opcode, CARD8 glx_code, XID id)
{
    xGLXQueryContextReq *req;
    xGLXQueryContextReply reply;
    int screen = -1;

    LockDisplay(dpy);
    GetReq(GLXQueryContext, req);
    req->reqType = (CARD8)opcode;
    req->glxCode = glx_code;
    req->context = (CARD32)id;
    quiet_begin(dpy);
    if (_XReply(dpy, (xReply *)&reply, 0, False)) {
        struct glmux_glx_conn conn = conn_of(dpy);

        screen = glmux_glx_reply_screen(&conn, reply.n, reply.length);
    }
    quiet_end();
    UnlockDisplay(dpy);
    SyncHandle();
    return screen;
}

/*
 * Core QueryTree, which only a window answers: its root tells its screen. A plain pixmap, or
 * anything else that is not a window, gets -1, so that the caller raises GLXBadDrawable as
 * the server would (GLX 1.4 section 3.3.10).
 */
static int window_screen(Display *dpy, XID drawable)
{
    xResourceReq *req;
    xQueryTreeReply reply;
    Window root = None;

    LockDisplay(dpy);
    GetResReq(QueryTree, drawable, req);
    quiet_begin(dpy);
    if (_XReply(dpy, (xReply *)&reply, 0, True))   /* the children are discarded */
        root = reply.root;
    quiet_end();
    UnlockDisplay(dpy);
    SyncHandle();
    if (root == None)
        return -1;
    for (int i = 0; i < ScreenCount(dpy); i++) {
        if (RootWindow(dpy, i) == root)
            return i;
    }
    return -1;
}

/*
 * The screen of a drawable libGLX did not create, asked of the server on every display, one
 * screen or several (the caller caches the answer): a GLX drawable the server knows (with
 * GLX_EXT_libglvnd), else a plain X window. A plain pixmap is no GLX drawable: -1.
 */
int glmux_glx_x11_drawable_screen(Display *dpy, int opcode, bool libglvnd_ext, XID drawable)
{
    int screen = -1;

    if (libglvnd_ext)
        screen = attribs_screen(dpy, opcode, X_GLXGetDrawableAttributes, drawable);
    if (screen < 0)
        screen = window_screen(dpy, drawable);
    return screen;
}

int glmux_glx_x11_context_screen(Display *dpy, int opcode, XID context)
{
    return attribs_screen(dpy, opcode, X_GLXQueryContext, context);
}

void glmux_glx_x11_send_error(Display *dpy, unsigned char code, XID resid, unsigned char major,
                              unsigned char minor)
{
    xError err;

    memset(&err, 0, sizeof(err));
    err.type = X_Error;
    err.errorCode = code;
    err.resourceID = (CARD32)resid;
    err.majorCode = major;
    err.minorCode = minor;
    LockDisplay(dpy);
    err.sequenceNumber = (CARD16)dpy->request;
    _XError(dpy, &err);
    UnlockDisplay(dpy);
}

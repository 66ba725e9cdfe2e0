/* SPDX-License-Identifier: MIT */
/*
 * glmux: libGLX's GLX functions that route to a vendor: by screen (visual, FBConfig queries),
 * by context, by FBConfig or by drawable. Objects a vendor creates are recorded so that later
 * calls find it; a handle libGLX does not know raises the GLX error the protocol would
 * (GLXBadContext, GLXBadFBConfig, GLXBadDrawable) and returns the API's failure value.
 */
#include <stdlib.h>

#include <X11/Xutil.h>
#include <X11/Xproto.h>
#include <GL/glxproto.h>

#include "glx/glx_api.h"
#include "glx/glx_client_string.h"
#include "glx/glx_display.h"
#include "glx/glx_lock.h"
#include "glx/glx_mapping.h"
#include "glx/glx_screen.h"
#include "glx/glx_thread.h"
#include "glx/glx_x11_request.h"
#include "util/env.h"
#include "util/log.h"

/*
 * An application error (a handle libGLX does not know). With __GLVND_APP_ERROR_CHECKING set it
 * is always reported (libglvnd would also abort; a glmux library never does), otherwise only
 * under GLMUX_DEBUG=dispatch.
 */
static void app_error(const char *what, const void *handle, unsigned char minor)
{
    static int checking = -1;
    int on = __atomic_load_n(&checking, __ATOMIC_RELAXED);

    if (on < 0) {
        on = glmux_env_get_flag("__GLVND_APP_ERROR_CHECKING");
        __atomic_store_n(&checking, on, __ATOMIC_RELAXED);
    }
    glmux_log(on ? GLMUX_LOG_ERROR : GLMUX_LOG_DISPATCH,
              "GLX request %u: %s %p is not known to libGLX (destroyed, or never created)",
              minor, what, handle);
}

static glmux_glx_vendor *by_context(Display *dpy, GLXContext ctx, unsigned char minor)
{
    glmux_glx_vendor *v = glmux_glx_vendor_from_context(ctx);

    if (v == NULL) {
        app_error("context", (const void *)ctx, minor);
        glmux_glx_x_error(dpy, GLXBadContext, 0, minor, false);
    }
    return v;
}

static glmux_glx_vendor *by_config(Display *dpy, GLXFBConfig config, unsigned char minor)
{
    glmux_glx_vendor *v = glmux_glx_vendor_from_fbconfig(dpy, config);

    if (v == NULL) {
        app_error("GLXFBConfig", (const void *)config, minor);
        glmux_glx_x_error(dpy, GLXBadFBConfig, 0, minor, false);
    }
    return v;
}

static glmux_glx_vendor *by_drawable(Display *dpy, GLXDrawable draw, unsigned char minor)
{
    glmux_glx_vendor *v = glmux_glx_vendor_from_drawable(dpy, draw);

    if (v == NULL) {
        app_error("drawable", (const void *)(uintptr_t)draw, minor);
        glmux_glx_x_error(dpy, GLXBadDrawable, draw, minor, false);
    }
    return v;
}

/* Records a new context, or destroys it when another vendor already owns the handle. */
static GLXContext add_context(Display *dpy, glmux_glx_vendor *v, GLXContext ctx)
{
    if (ctx != NULL && glmux_glx_context_add(dpy, ctx, v) != 0) {
        v->fns.DestroyContext(dpy, ctx);
        return NULL;
    }
    return ctx;
}

static GLXDrawable add_drawable(Display *dpy, glmux_glx_vendor *v, GLXDrawable draw)
{
    if (draw != None && glmux_glx_drawable_add(dpy, draw, v) != 0)
        glmux_log(GLMUX_LOG_WARN, "drawable 0x%lx is claimed by two vendors",
                  (unsigned long)draw);
    return draw;
}

static GLXFBConfig *add_configs(Display *dpy, glmux_glx_vendor *v, GLXFBConfig *configs, int *n)
{
    if (configs == NULL)
        return NULL;
    if (glmux_glx_fbconfig_add_list(dpy, configs, *n, v) != 0) {
        XFree(configs);
        *n = 0;
        return NULL;
    }
    return configs;
}

XVisualInfo *glmux_glx_ChooseVisual(Display *dpy, int screen, int *attribs)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = glmux_glx_vendor_for_screen(dpy, screen);
    return v ? v->fns.ChooseVisual(dpy, screen, attribs) : NULL;
}

void glmux_glx_CopyContext(Display *dpy, GLXContext src, GLXContext dst, unsigned long mask)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_context(dpy, src, X_GLXCopyContext)) != NULL)
        v->fns.CopyContext(dpy, src, dst, mask);
}

GLXContext glmux_glx_CreateContext(Display *dpy, XVisualInfo *vis, GLXContext share,
                                   Bool direct)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if (vis == NULL)
        return NULL;
    v = glmux_glx_vendor_for_screen(dpy, vis->screen);
    return v ? add_context(dpy, v, v->fns.CreateContext(dpy, vis, share, direct)) : NULL;
}

GLXContext glmux_glx_CreateNewContext(Display *dpy, GLXFBConfig config, int type,
                                      GLXContext share, Bool direct)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_config(dpy, config, X_GLXCreateNewContext)) == NULL)
        return NULL;
    return add_context(dpy, v, v->fns.CreateNewContext(dpy, config, type, share, direct));
}

GLXContext glmux_glx_CreateContextAttribsARB(Display *dpy, GLXFBConfig config,
                                             GLXContext share, Bool direct, const int *attribs)
{
    glmux_glx_vendor *v = NULL;
    bool by_screen = false;

    glmux_glx_entry();
    for (const int *a = attribs; a != NULL && a[0] != None; a += 2) {
        if (a[0] == GLX_SCREEN) {
            v = glmux_glx_vendor_for_screen(dpy, a[1]);
            by_screen = true;
            break;
        }
    }
    if (!by_screen)
        v = by_config(dpy, config, X_GLXCreateContextAttribsARB);
    if (v == NULL)
        return NULL;
    if (v->fns.CreateContextAttribsARB == NULL) {
        glmux_glx_x_error(dpy, BadRequest, 0, X_GLXCreateContextAttribsARB, true);
        return NULL;
    }
    return add_context(dpy, v,
                       v->fns.CreateContextAttribsARB(dpy, config, share, direct, attribs));
}

GLXContext glmux_glx_ImportContextEXT(Display *dpy, GLXContextID id)
{
    struct glmux_glx_display *d;
    glmux_glx_vendor *v;
    int screen = -1, opcode = 0;
    bool has_glx = false;

    glmux_glx_entry();
    if (dpy == NULL)
        return NULL;
    if ((d = glmux_glx_display_get(dpy)) != NULL) {
        has_glx = d->has_glx;
        opcode = d->opcode;
    }
    if (has_glx)
        screen = glmux_glx_x11_context_screen(dpy, opcode, id);
    if (screen < 0) {
        glmux_glx_x_error(dpy, GLXBadContext, id, X_GLXQueryContext, false);
        return NULL;
    }
    v = glmux_glx_vendor_for_screen(dpy, screen);
    if (v == NULL || v->fns.ImportContextEXT == NULL)
        return NULL;
    return add_context(dpy, v, v->fns.ImportContextEXT(dpy, id));
}

void glmux_glx_FreeContextEXT(Display *dpy, GLXContext ctx)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = glmux_glx_vendor_from_context(ctx);
    if (v == NULL || v->fns.FreeContextEXT == NULL)
        return;
    glmux_glx_context_remove(dpy, ctx);
    v->fns.FreeContextEXT(dpy, ctx);
}

void glmux_glx_DestroyContext(Display *dpy, GLXContext ctx)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_context(dpy, ctx, X_GLXDestroyContext)) == NULL)
        return;
    glmux_glx_context_remove(dpy, ctx);
    v->fns.DestroyContext(dpy, ctx);
}

Bool glmux_glx_IsDirect(Display *dpy, GLXContext ctx)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = by_context(dpy, ctx, X_GLXIsDirect);
    return v ? v->fns.IsDirect(dpy, ctx) : False;
}

int glmux_glx_QueryContext(Display *dpy, GLXContext ctx, int attrib, int *value)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = by_context(dpy, ctx, X_GLXQueryContext);
    return v ? v->fns.QueryContext(dpy, ctx, attrib, value) : GLX_BAD_CONTEXT;
}

GLXPixmap glmux_glx_CreateGLXPixmap(Display *dpy, XVisualInfo *vis, Pixmap pixmap)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if (vis == NULL || (v = glmux_glx_vendor_for_screen(dpy, vis->screen)) == NULL)
        return None;
    return add_drawable(dpy, v, v->fns.CreateGLXPixmap(dpy, vis, pixmap));
}

void glmux_glx_DestroyGLXPixmap(Display *dpy, GLXPixmap pixmap)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, pixmap, X_GLXDestroyGLXPixmap)) == NULL)
        return;
    glmux_glx_drawable_remove(dpy, pixmap);
    v->fns.DestroyGLXPixmap(dpy, pixmap);
}

int glmux_glx_GetConfig(Display *dpy, XVisualInfo *vis, int attrib, int *value)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if (vis == NULL || (v = glmux_glx_vendor_for_screen(dpy, vis->screen)) == NULL)
        return GLX_NO_EXTENSION;
    return v->fns.GetConfig(dpy, vis, attrib, value);
}

void glmux_glx_SwapBuffers(Display *dpy, GLXDrawable draw)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, draw, X_GLXSwapBuffers)) != NULL)
        v->fns.SwapBuffers(dpy, draw);
}

void glmux_glx_UseXFont(Font font, int first, int count, int list)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = glmux_glx_thread_vendor()) != NULL)
        v->fns.UseXFont(font, first, count, list);
}

void glmux_glx_WaitGL(void)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = glmux_glx_thread_vendor()) != NULL)
        v->fns.WaitGL();
}

void glmux_glx_WaitX(void)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = glmux_glx_thread_vendor()) != NULL)
        v->fns.WaitX();
}

const char *glmux_glx_QueryExtensionsString(Display *dpy, int screen)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = glmux_glx_vendor_for_screen(dpy, screen);
    return v ? v->fns.QueryExtensionsString(dpy, screen) : NULL;
}

const char *glmux_glx_QueryServerString(Display *dpy, int screen, int name)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = glmux_glx_vendor_for_screen(dpy, screen);
    return v ? v->fns.QueryServerString(dpy, screen, name) : NULL;
}

const char *glmux_glx_GetClientString(Display *dpy, int name)
{
    glmux_glx_entry();
    return glmux_glx_client_string(dpy, name);
}

GLXFBConfig *glmux_glx_ChooseFBConfig(Display *dpy, int screen, const int *attribs, int *n)
{
    glmux_glx_vendor *v;
    int count = 0;
    GLXFBConfig *configs;

    glmux_glx_entry();
    if (n != NULL)
        *n = 0;
    if ((v = glmux_glx_vendor_for_screen(dpy, screen)) == NULL)
        return NULL;
    configs = add_configs(dpy, v, v->fns.ChooseFBConfig(dpy, screen, attribs, &count), &count);
    if (n != NULL)
        *n = count;
    return configs;
}

GLXFBConfig *glmux_glx_GetFBConfigs(Display *dpy, int screen, int *n)
{
    glmux_glx_vendor *v;
    int count = 0;
    GLXFBConfig *configs;

    glmux_glx_entry();
    if (n != NULL)
        *n = 0;
    if ((v = glmux_glx_vendor_for_screen(dpy, screen)) == NULL)
        return NULL;
    configs = add_configs(dpy, v, v->fns.GetFBConfigs(dpy, screen, &count), &count);
    if (n != NULL)
        *n = count;
    return configs;
}

int glmux_glx_GetFBConfigAttrib(Display *dpy, GLXFBConfig config, int attrib, int *value)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_config(dpy, config, X_GLXGetFBConfigs)) == NULL)
        return GLX_BAD_ATTRIBUTE;
    return v->fns.GetFBConfigAttrib(dpy, config, attrib, value);
}

XVisualInfo *glmux_glx_GetVisualFromFBConfig(Display *dpy, GLXFBConfig config)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    v = by_config(dpy, config, X_GLXGetFBConfigs);
    return v ? v->fns.GetVisualFromFBConfig(dpy, config) : NULL;
}

GLXPbuffer glmux_glx_CreatePbuffer(Display *dpy, GLXFBConfig config, const int *attribs)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_config(dpy, config, X_GLXCreatePbuffer)) == NULL)
        return None;
    return add_drawable(dpy, v, v->fns.CreatePbuffer(dpy, config, attribs));
}

GLXPixmap glmux_glx_CreatePixmap(Display *dpy, GLXFBConfig config, Pixmap pixmap,
                                 const int *attribs)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_config(dpy, config, X_GLXCreatePixmap)) == NULL)
        return None;
    return add_drawable(dpy, v, v->fns.CreatePixmap(dpy, config, pixmap, attribs));
}

GLXWindow glmux_glx_CreateWindow(Display *dpy, GLXFBConfig config, Window win, const int *attribs)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_config(dpy, config, X_GLXCreateWindow)) == NULL)
        return None;
    return add_drawable(dpy, v, v->fns.CreateWindow(dpy, config, win, attribs));
}

void glmux_glx_DestroyPbuffer(Display *dpy, GLXPbuffer pbuf)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, pbuf, X_GLXDestroyPbuffer)) == NULL)
        return;
    glmux_glx_drawable_remove(dpy, pbuf);
    v->fns.DestroyPbuffer(dpy, pbuf);
}

void glmux_glx_DestroyPixmap(Display *dpy, GLXPixmap pixmap)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, pixmap, X_GLXDestroyPixmap)) == NULL)
        return;
    glmux_glx_drawable_remove(dpy, pixmap);
    v->fns.DestroyPixmap(dpy, pixmap);
}

void glmux_glx_DestroyWindow(Display *dpy, GLXWindow win)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, win, X_GLXDestroyWindow)) == NULL)
        return;
    glmux_glx_drawable_remove(dpy, win);
    v->fns.DestroyWindow(dpy, win);
}

void glmux_glx_GetSelectedEvent(Display *dpy, GLXDrawable draw, unsigned long *mask)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, draw, X_GLXGetDrawableAttributes)) != NULL)
        v->fns.GetSelectedEvent(dpy, draw, mask);
}

void glmux_glx_SelectEvent(Display *dpy, GLXDrawable draw, unsigned long mask)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, draw, X_GLXChangeDrawableAttributes)) != NULL)
        v->fns.SelectEvent(dpy, draw, mask);
}

void glmux_glx_QueryDrawable(Display *dpy, GLXDrawable draw, int attrib, unsigned int *value)
{
    glmux_glx_vendor *v;

    glmux_glx_entry();
    if ((v = by_drawable(dpy, draw, X_GLXGetDrawableAttributes)) != NULL)
        v->fns.QueryDrawable(dpy, draw, attrib, value);
}

Bool glmux_glx_QueryExtension(Display *dpy, int *error_base, int *event_base)
{
    struct glmux_glx_display *d;
    Bool ok = False;

    glmux_glx_entry();
    if (dpy == NULL)
        return False;
    if ((d = glmux_glx_display_get(dpy)) != NULL && d->has_glx) {
        ok = True;
        if (error_base != NULL)
            *error_base = d->first_error;
        if (event_base != NULL)
            *event_base = d->first_event;
    }
    if (!ok && glmux_glx_display_pixels(dpy)) {
        /* No GLX on the server; the pixels vendor renders here: no GLX errors or events. */
        ok = True;
        if (error_base != NULL)
            *error_base = 0;
        if (event_base != NULL)
            *event_base = 0;
    }
    return ok;
}

Bool glmux_glx_QueryVersion(Display *dpy, int *major, int *minor)
{
    struct glmux_glx_display *d;
    int opcode = 0, smajor = 0, sminor = 0;
    bool has_glx = false;

    glmux_glx_entry();
    if (dpy == NULL)
        return False;
    if ((d = glmux_glx_display_get(dpy)) != NULL) {
        has_glx = d->has_glx;
        opcode = d->opcode;
        glmux_glx_map_acquire();
        smajor = d->server_major;
        sminor = d->server_minor;
        glmux_glx_map_release();
    }
    if (!has_glx && glmux_glx_display_pixels(dpy)) {
        smajor = 1; /* the pixels vendor implements GLX 1.4 itself */
        sminor = 4;
    } else if (!has_glx) {
        return False;
    }
    if (smajor == 0) {
        if (!glmux_glx_x11_query_version(dpy, opcode, &smajor, &sminor) || smajor != 1)
            return False;
        glmux_glx_map_acquire();
        d->server_major = smajor;
        d->server_minor = sminor;
        glmux_glx_map_release();
    }
    if (major != NULL)
        *major = smajor;
    if (minor != NULL)
        *minor = sminor;
    return True;
}
